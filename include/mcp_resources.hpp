// mcp_resources.hpp: a header-only C++17 wrapper over the C API in
// mcp_resources.h. Link the same library (mcp_resources::mcp_resources or
// -lmcp_resources); nothing here is compiled into it.
//
// What it gives (docs/C-API.md, section "C++", has the details):
//
// - RAII handles, one owner each, move-only: Builder, Executor, Cancel and
//   the results Bundle, Page, Response, Completion. A moved-from handle is
//   empty (its accessors must not be called; destroying it is fine).
//   `Resources` is *copyable*: each copy is its own registry reference
//   (mcpr_resources_retain), so copies may be handed to other threads.
// - Results are not copied: `json()` and the other accessors return
//   std::string_view borrowed from the result object, valid while it lives.
//   Copy them into a std::string (one allocation and copy of the JSON) only
//   when you must keep the text after the result goes.
// - Every wrapper call that fails throws mcpr::Error (status, safe message,
//   private cause, JSON-RPC code and the complete JSON-RPC error object,
//   all copied out of the mcpr_error, which is freed before the throw).
//   One exception: CompletionBuilder::add_value returns false for a value
//   the library drops, as the C contract lets the other values stand.
// - Callbacks are std::function members of mcpr::Policy and mcpr::Binding.
//   The C trampolines catch every exception: an exception out of a callback
//   becomes MCPR_CB_FAILED with its what() as the call's private cause, so
//   none ever reaches the library. The heap object holding the functions is
//   deleted by the table's `release` callback, which the library runs
//   exactly once, after the last call into the table has returned.
// - Views inside callbacks (Call, Definition, Match, Target,
//   CompletionRequest) and the builders (PlanBuilder, PayloadBuilder,
//   CompletionBuilder) are thin wrappers over the borrowed C pointers: valid
//   only until the callback returns.
// - Observers (mcp_resources_observe.hpp, included at the end): a lambda
//   receiving each call's event, and its decisions when asked.
#ifndef MCP_RESOURCES_HPP
#define MCP_RESOURCES_HPP

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mcp_resources.h"

namespace mcpr {

// ------------------------------------------------------------------ strings

/// A std::string_view as an mcpr_str (borrowed; no copy).
inline mcpr_str to_c(std::string_view s) noexcept { return mcpr_str{s.data(), s.size()}; }

/// An mcpr_str as a std::string_view (borrowed from whatever owns it).
inline std::string_view to_view(mcpr_str s) noexcept {
    return s.ptr == nullptr ? std::string_view() : std::string_view(s.ptr, s.len);
}

// ------------------------------------------------------------------ errors

/// The enumerator's name of a status ("MCPR_OK", ...; "MCPR_UNKNOWN_STATUS"
/// for a value this library does not define). Static text.
inline std::string_view status_name(mcpr_status s) noexcept {
    return mcpr_status_name(static_cast<std::int32_t>(s));
}

/// A failed library call. what() is the safe message (may be sent to a
/// client); cause() is private (log it, never send it).
class Error : public std::runtime_error {
public:
    /// Builds an error from its parts (the wrapper copies them out of an
    /// mcpr_error; hosts rarely need this).
    Error(mcpr_status status, std::string message, std::string cause, std::int32_t jsonrpc_code,
          std::string jsonrpc_json)
        : std::runtime_error(message),
          status_(status),
          cause_(std::move(cause)),
          code_(jsonrpc_code),
          json_(std::move(jsonrpc_json)) {}

    /// The status the call returned (never MCPR_OK).
    mcpr_status status() const noexcept { return status_; }
    /// The safe message (same text as what()).
    std::string_view message() const noexcept { return what(); }
    /// The private cause: may hold identifiers and callback causes.
    const std::string &cause() const noexcept { return cause_; }
    /// The JSON-RPC error code to answer with.
    std::int32_t jsonrpc_code() const noexcept { return code_; }
    /// The complete JSON-RPC `error` object (mcpr_error_jsonrpc_json);
    /// empty for the few errors the wrapper raises itself (a negative
    /// timeout, a binding without `read`) and when the library could not
    /// make an error object.
    const std::string &jsonrpc_json() const noexcept { return json_; }

private:
    mcpr_status status_;
    std::string cause_;
    std::int32_t code_;
    std::string json_;
};

namespace detail {

/// JSON-RPC error codes used when no error object is available.
constexpr std::int32_t jsonrpc_method_not_found = -32601;
constexpr std::int32_t jsonrpc_internal_error = -32603;

struct ErrorFree {
    void operator()(mcpr_error *e) const noexcept { mcpr_error_free(e); }
};

/// Turns a failed status and its (possibly NULL) error object into an
/// mcpr::Error; the mcpr_error is freed on every path (also when copying
/// its strings throws std::bad_alloc).
[[noreturn]] inline void throw_error(mcpr_status status, mcpr_error *raw) {
    std::unique_ptr<mcpr_error, ErrorFree> e(raw);
    if (!e) {
        std::int32_t code = status == MCPR_METHOD_NOT_HANDLED ? jsonrpc_method_not_found : jsonrpc_internal_error;
        throw Error(status, std::string(status_name(status)), std::string(), code, std::string());
    }
    throw Error(mcpr_error_status(e.get()), std::string(to_view(mcpr_error_message(e.get()))),
                std::string(to_view(mcpr_error_cause(e.get()))), mcpr_error_jsonrpc_code(e.get()),
                std::string(to_view(mcpr_error_jsonrpc_json(e.get()))));
}

/// Calls `f(&err)` and throws mcpr::Error when it does not return MCPR_OK.
template <class F> inline void check(F &&f) {
    mcpr_error *err = nullptr;
    mcpr_status s = std::forward<F>(f)(&err);
    if (s != MCPR_OK) throw_error(s, err);
    mcpr_error_free(err);  // never set on success; harmless if it were
}

inline std::uint64_t to_ms(std::chrono::milliseconds d) {
    if (d.count() < 0) throw Error(MCPR_INVALID_ARGUMENT, "negative timeout", std::string(), detail::jsonrpc_internal_error, std::string());
    return static_cast<std::uint64_t>(d.count());
}

template <class T, void (*Free)(T *)> struct Deleter {
    void operator()(T *p) const noexcept { Free(p); }
};
template <class T, void (*Free)(T *)> using Owned = std::unique_ptr<T, Deleter<T, Free>>;

}  // namespace detail

// ------------------------------------------------------------------ small handles

/// A cancellation token (mcpr_cancel). Move-only; cancel() is safe from any
/// thread while the handle lives. A call keeps its own reference, so the
/// token may be destroyed once the call it was given to has returned.
class Cancel {
public:
    /// A new, uncancelled token. Throws std::bad_alloc if none can be made.
    Cancel() : p_(mcpr_cancel_new()) {
        if (!p_) throw std::bad_alloc();
    }
    /// Cancels every call using the token (idempotent).
    void cancel() const noexcept { mcpr_cancel_cancel(p_.get()); }
    /// Whether cancel() was called.
    bool is_canceled() const noexcept { return mcpr_cancel_is_canceled(p_.get()); }
    /// The C handle (borrowed).
    const mcpr_cancel *get() const noexcept { return p_.get(); }

private:
    detail::Owned<mcpr_cancel, mcpr_cancel_free> p_;
};

/// Executor options; zero means the library's default for each field.
struct ExecutorOptions {
    std::size_t threads = 0;     ///< healthy workers; 0 = cores, at least 2
    std::size_t max_hung = 0;    ///< 0 = max(8 x threads, 64)
    std::size_t max_queued = 0;  ///< 0 = max(64 x threads, 1024)
};

/// A worker pool for callbacks (mcpr_executor): calls given one return by
/// their deadline whatever a callback does. Move-only; may serve many
/// registries and threads.
class Executor {
public:
    /// Throws mcpr::Error on bad options (MCPR_INVALID_ARGUMENT).
    explicit Executor(const ExecutorOptions &o = ExecutorOptions()) {
        mcpr_executor_options c;
        mcpr_executor_options_init(&c);
        c.threads = o.threads;
        c.max_hung = o.max_hung;
        c.max_queued = o.max_queued;
        mcpr_executor *raw = nullptr;
        detail::check([&](mcpr_error **e) { return mcpr_executor_new_with(&c, &raw, e); });
        p_.reset(raw);
    }
    /// A snapshot of the executor's counters.
    mcpr_executor_stats stats() const {
        mcpr_executor_stats s{};
        s.struct_size = sizeof s;
        detail::check([&](mcpr_error **e) { return mcpr_executor_get_stats(p_.get(), &s, e); });
        return s;
    }
    /// The C handle (borrowed).
    const mcpr_executor *get() const noexcept { return p_.get(); }

private:
    detail::Owned<mcpr_executor, mcpr_executor_free> p_;
};

// ------------------------------------------------------------------ results

/// A `resources/read` result (mcpr_bundle). Move-only.
class Bundle {
public:
    /// Takes ownership of a C bundle.
    explicit Bundle(mcpr_bundle *b) noexcept : p_(b) {}
    /// The JSON `result` object, borrowed from the bundle.
    std::string_view json() const noexcept { return to_view(mcpr_bundle_json(p_.get())); }
    /// Whether some item failed (the first item is then the warning).
    bool is_partial() const noexcept { return mcpr_bundle_is_partial(p_.get()); }
    /// The C handle (borrowed).
    const mcpr_bundle *get() const noexcept { return p_.get(); }

private:
    detail::Owned<mcpr_bundle, mcpr_bundle_free> p_;
};

/// A list page (mcpr_page). Move-only.
class Page {
public:
    /// Takes ownership of a C page.
    explicit Page(mcpr_page *p) noexcept : p_(p) {}
    /// The JSON `result` object, borrowed from the page.
    std::string_view json() const noexcept { return to_view(mcpr_page_json(p_.get())); }
    /// The next cursor; empty on the last page.
    std::string_view next_cursor() const noexcept { return to_view(mcpr_page_next_cursor(p_.get())); }
    /// The C handle (borrowed).
    const mcpr_page *get() const noexcept { return p_.get(); }

private:
    detail::Owned<mcpr_page, mcpr_page_free> p_;
};

/// A JSON-RPC response made by Resources::request (mcpr_response). Move-only.
class Response {
public:
    /// Takes ownership of a C response.
    explicit Response(mcpr_response *p) noexcept : p_(p) {}
    /// The JSON to send: under "result", or under "error" when is_error().
    std::string_view json() const noexcept { return to_view(mcpr_response_json(p_.get())); }
    /// Whether json() is an error object.
    bool is_error() const noexcept { return mcpr_response_is_error(p_.get()); }
    /// The status behind an error response (MCPR_OK for a result).
    mcpr_status status() const noexcept { return mcpr_response_status(p_.get()); }
    /// The private cause of an error response (log it, never send it).
    std::string_view cause() const noexcept { return to_view(mcpr_response_cause(p_.get())); }
    /// Whether a read result is partial.
    bool is_partial() const noexcept { return mcpr_response_is_partial(p_.get()); }
    /// The C handle (borrowed).
    const mcpr_response *get() const noexcept { return p_.get(); }

private:
    detail::Owned<mcpr_response, mcpr_response_free> p_;
};

/// What a message was (mcpr_message_kind).
enum class MessageKind : mcpr_message_kind {
    none = MCPR_MESSAGE_NONE,
    request = MCPR_MESSAGE_REQUEST,
    notification = MCPR_MESSAGE_NOTIFICATION,
    response = MCPR_MESSAGE_RESPONSE,
    invalid = MCPR_MESSAGE_INVALID
};

/// The reply to one JSON-RPC message (mcpr_reply). Move-only. Send json()
/// when it is not empty; when handled() is false, the message is yours
/// (a method the library does not serve, another notification, a
/// client's response): route it by method(), answer a request with id().
class Reply {
public:
    /// Takes ownership of a C reply.
    explicit Reply(mcpr_reply *p) noexcept : p_(p) {}
    /// The whole response message to send (one line, no newline), or empty.
    std::string_view json() const noexcept { return to_view(mcpr_reply_json(p_.get())); }
    /// Whether the library dealt with the message (false: the host must).
    bool handled() const noexcept { return mcpr_reply_handled(p_.get()); }
    /// What the message was.
    MessageKind kind() const noexcept { return static_cast<MessageKind>(mcpr_reply_kind(p_.get())); }
    /// The method of a request or notification (decoded), else empty.
    std::string_view method() const noexcept { return to_view(mcpr_reply_method(p_.get())); }
    /// The raw JSON text of the id, as sent (empty for a notification).
    std::string_view id() const noexcept { return to_view(mcpr_reply_id(p_.get())); }
    /// The raw params text of a message not handled, as sent.
    std::string_view params() const noexcept { return to_view(mcpr_reply_params(p_.get())); }
    /// The status behind the reply (MCPR_OK for a result; MCPR_CANCELED for
    /// a cancelled request, which gets no response).
    mcpr_status status() const noexcept { return mcpr_reply_status(p_.get()); }
    /// Whether json() is an error response.
    bool is_error() const noexcept { return mcpr_reply_is_error(p_.get()); }
    /// The private cause behind a failure (log it, never send it).
    std::string_view cause() const noexcept { return to_view(mcpr_reply_cause(p_.get())); }
    /// Whether a read result is partial.
    bool is_partial() const noexcept { return mcpr_reply_is_partial(p_.get()); }
    /// The C handle (borrowed).
    const mcpr_reply *get() const noexcept { return p_.get(); }

private:
    detail::Owned<mcpr_reply, mcpr_reply_free> p_;
};

/// A `completion/complete` result (mcpr_completion). Move-only.
class Completion {
public:
    /// Takes ownership of a C completion.
    explicit Completion(mcpr_completion *c) noexcept : p_(c) {}
    /// The JSON `result` object, borrowed from the completion.
    std::string_view json() const noexcept { return to_view(mcpr_completion_json(p_.get())); }
    /// How many values it holds.
    std::size_t value_count() const noexcept { return mcpr_completion_value_count(p_.get()); }
    /// Whether more values exist than were returned.
    bool has_more() const noexcept { return mcpr_completion_has_more(p_.get()); }

private:
    detail::Owned<mcpr_completion, mcpr_completion_free> p_;
};

// ------------------------------------------------------------------ callback views

/// What a callback returns (MCPR_CB_OK / _UNAVAILABLE / _FAILED). To fail
/// with a cause, throw (the what() becomes the private cause) or call
/// Call::set_cause and return Result::failed.
/// Result::invalid_content (MCPR_CB_INVALID_CONTENT) from a body reader
/// makes the item an `invalid_content` issue; elsewhere it fails like
/// Result::failed.
enum class Result : mcpr_cb_result {
    ok = MCPR_CB_OK,
    unavailable = MCPR_CB_UNAVAILABLE,
    failed = MCPR_CB_FAILED,
    invalid_content = MCPR_CB_INVALID_CONTENT
};

/// The call a callback runs for (borrowed mcpr_call).
class Call {
public:
    explicit Call(const mcpr_call *c) noexcept : c_(c) {}
    /// True once the call was cancelled or this callback's deadline passed.
    bool is_canceled() const noexcept { return mcpr_call_is_canceled(c_); }
    /// Time left before the deadline that applies to this callback.
    std::chrono::milliseconds remaining() const noexcept {
        std::uint64_t ms = mcpr_call_remaining_ms(c_);
        constexpr std::uint64_t cap = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
        return std::chrono::milliseconds(static_cast<std::int64_t>(ms > cap ? cap : ms));
    }
    /// The options' request_data.
    void *request_data() const noexcept { return mcpr_call_request_data(c_); }
    /// Which step of which call this callback serves (MCPR_PHASE_*).
    mcpr_phase phase() const noexcept { return mcpr_call_phase(c_); }
    /// The item byte limit (a hint for body readers).
    std::uint64_t max_bytes() const noexcept { return mcpr_call_max_bytes(c_); }
    /// Sets the private cause reported if the callback fails.
    void set_cause(std::string_view message) const noexcept { mcpr_call_set_cause(c_, to_c(message)); }
    /// The C view (borrowed).
    const mcpr_call *get() const noexcept { return c_; }

private:
    const mcpr_call *c_;
};

/// A registered definition (borrowed mcpr_definition).
class Definition {
public:
    explicit Definition(const mcpr_definition *d) noexcept : d_(d) {}
    std::string_view json() const noexcept { return to_view(mcpr_definition_json(d_)); }      ///< its JSON
    std::string_view uri() const noexcept { return to_view(mcpr_definition_uri(d_)); }        ///< uri or uriTemplate
    std::string_view name() const noexcept { return to_view(mcpr_definition_name(d_)); }      ///< its name
    bool is_template() const noexcept { return mcpr_definition_is_template(d_); }              ///< a template?
    const mcpr_definition *get() const noexcept { return d_; }                                 ///< the C view

private:
    const mcpr_definition *d_;
};

/// A matched read URI (borrowed mcpr_match).
class Match {
public:
    explicit Match(const mcpr_match *m) noexcept : m_(m) {}
    /// The definition that matched.
    Definition definition() const noexcept { return Definition(mcpr_match_definition(m_)); }
    /// The requested URI.
    std::string_view uri() const noexcept { return to_view(mcpr_match_uri(m_)); }
    /// How many template captures there are.
    std::size_t capture_count() const noexcept { return mcpr_match_capture_count(m_); }
    /// The i-th capture's variable name.
    std::string_view capture_name(std::size_t i) const noexcept { return to_view(mcpr_match_capture_name(m_, i)); }
    /// The i-th capture's value.
    std::string_view capture_value(std::size_t i) const noexcept { return to_view(mcpr_match_capture_value(m_, i)); }
    /// The value captured for `name`, if any.
    std::optional<std::string_view> capture(std::string_view name) const noexcept {
        for (std::size_t i = 0, n = capture_count(); i < n; ++i)
            if (capture_name(i) == name) return capture_value(i);
        return std::nullopt;
    }
    const mcpr_match *get() const noexcept { return m_; }  ///< the C view

private:
    const mcpr_match *m_;
};

/// A planned target (borrowed mcpr_target).
class Target {
public:
    explicit Target(const mcpr_target *t) noexcept : t_(t) {}
    std::string_view uri() const noexcept { return to_view(mcpr_target_uri(t_)); }                        ///< its URI
    std::string_view representation() const noexcept { return to_view(mcpr_target_representation(t_)); }  ///< e.g. "default"
    std::string_view authorization() const noexcept { return to_view(mcpr_target_authorization(t_)); }    ///< JSON or empty
    const mcpr_target *get() const noexcept { return t_; }                                                 ///< the C view

private:
    const mcpr_target *t_;
};

/// The plan a resolve callback fills (borrowed mcpr_plan_builder). Setters
/// throw mcpr::Error when refused (the trampoline turns that into a failed
/// resolve).
class PlanBuilder {
public:
    explicit PlanBuilder(mcpr_plan_builder *p) noexcept : p_(p) {}
    /// Sets the requested target.
    void set_requested(std::string_view uri, std::string_view representation = {},
                       std::string_view authorization_json = {}) {
        detail::check([&](mcpr_error **e) {
            return mcpr_plan_set_requested(p_, to_c(uri), to_c(representation), to_c(authorization_json), e);
        });
    }
    /// Adds an item to read.
    void add_item(std::string_view uri, std::string_view representation = {}, std::string_view authorization_json = {}) {
        detail::check([&](mcpr_error **e) {
            return mcpr_plan_add_item(p_, to_c(uri), to_c(representation), to_c(authorization_json), e);
        });
    }
    mcpr_plan_builder *get() const noexcept { return p_; }  ///< the C builder

private:
    mcpr_plan_builder *p_;
};

/// Cache hints (mcpr_cache_hints without its struct_size field).
struct CacheHints {
    std::chrono::milliseconds ttl{0};  ///< 0 = not cacheable
    bool caller_independent = false;   ///< the same for every caller
};

namespace detail {
/// The C struct of `h` (struct_size set). Throws for a negative TTL.
inline mcpr_cache_hints c_hints(const CacheHints &h) {
    mcpr_cache_hints c{};
    mcpr_cache_hints_init(&c);
    c.ttl_ms = to_ms(h.ttl);
    c.caller_independent = h.caller_independent;
    return c;
}
}  // namespace detail

/// The body a read callback fills (borrowed mcpr_payload_builder). Setters
/// throw mcpr::Error when refused.
class PayloadBuilder {
public:
    explicit PayloadBuilder(mcpr_payload_builder *o) noexcept : o_(o) {}
    /// A text body (UTF-8).
    void set_text(std::string_view mime_type, std::string_view text) {
        detail::check([&](mcpr_error **e) { return mcpr_payload_set_text(o_, to_c(mime_type), to_c(text), e); });
    }
    /// A binary body (the library base64-encodes it).
    void set_blob(std::string_view mime_type, const void *data, std::size_t len) {
        detail::check([&](mcpr_error **e) {
            return mcpr_payload_set_blob(o_, to_c(mime_type), static_cast<const std::uint8_t *>(data), len, e);
        });
    }
    /// The item's `_meta` object (JSON).
    void set_meta(std::string_view meta_json) {
        detail::check([&](mcpr_error **e) { return mcpr_payload_set_meta(o_, to_c(meta_json), e); });
    }
    /// This item's cache hints (can only lower the binding's).
    void set_cache_hints(const CacheHints &h) {
        mcpr_cache_hints c = detail::c_hints(h);
        detail::check([&](mcpr_error **e) { return mcpr_payload_set_cache_hints(o_, &c, e); });
    }
    mcpr_payload_builder *get() const noexcept { return o_; }  ///< the C builder

private:
    mcpr_payload_builder *o_;
};

/// A completion request (borrowed mcpr_completion_request).
class CompletionRequest {
public:
    explicit CompletionRequest(const mcpr_completion_request *q) noexcept : q_(q) {}
    Definition definition() const noexcept { return Definition(mcpr_completion_request_definition(q_)); }  ///< the template
    std::string_view argument() const noexcept { return to_view(mcpr_completion_request_argument(q_)); }  ///< variable name
    std::string_view value() const noexcept { return to_view(mcpr_completion_request_value(q_)); }        ///< typed prefix
    std::size_t context_count() const noexcept { return mcpr_completion_request_context_count(q_); }     ///< context size
    std::string_view context_name(std::size_t i) const noexcept {  ///< i-th context name
        return to_view(mcpr_completion_request_context_name(q_, i));
    }
    std::string_view context_value(std::size_t i) const noexcept {  ///< i-th context value
        return to_view(mcpr_completion_request_context_value(q_, i));
    }

private:
    const mcpr_completion_request *q_;
};

/// The values a complete callback returns (borrowed mcpr_completion_builder).
class CompletionBuilder {
public:
    explicit CompletionBuilder(mcpr_completion_builder *o) noexcept : o_(o) {}
    /// Proposes one value, in relevance order. Returns false, without
    /// throwing, when the library dropped it (no valid completion value:
    /// empty, containing `/`, a backslash or NUL, `.` or `..`, `%`, `?` or
    /// `#`, a control, bidi override or other format character, too long
    /// once RFC 6570-encoded; BEHAVIOUR §13 rule 5): a value is what the
    /// client substitutes into `{var}` (`a b`, not `a%20b`). A dropped value
    /// does not spoil the others, so the
    /// callback goes on. Throws mcpr::Error only for misuse (a builder
    /// used after its callback returned is undefined behaviour).
    bool add_value(std::string_view v) {
        mcpr_error *err = nullptr;
        mcpr_status s = mcpr_completion_add_value(o_, to_c(v), &err);
        if (s == MCPR_OK) return true;
        if (s == MCPR_INVALID_CONTENT) {
            mcpr_error_free(err);
            return false;
        }
        detail::throw_error(s, err);
    }
    void set_total(std::uint64_t total) {  ///< total number of matches
        detail::check([&](mcpr_error **e) { return mcpr_completion_set_total(o_, total, e); });
    }
    void set_has_more(bool more) {  ///< whether more values exist
        detail::check([&](mcpr_error **e) { return mcpr_completion_set_has_more(o_, more, e); });
    }

private:
    mcpr_completion_builder *o_;
};

// ------------------------------------------------------------------ callback tables

/// What a visibility callback decides. `visible` starts undecided: a
/// callback returning Result::ok must set it (true or false); the library
/// treats OK without a decision as a policy failure (or, in releases before
/// that rule, as hidden), so a forgotten assignment never shows anything.
struct Visibility {
    std::optional<bool> visible;      ///< the target may be shown; unset = undecided
    bool disclose_issue_uri = false;  ///< a failure of it may name its URI
};

/// The access policy. Every member may run concurrently on any thread. An
/// empty member fails closed: discover and read deny (Result::unavailable),
/// visibility hides. Policy::allow_all() allows everything (tests, demos).
struct Policy {
    std::function<Result(const Call &, const Definition &)> discover;
    std::function<Result(const Call &, const Target &, Visibility &)> visibility;
    std::function<Result(const Call &, const Target &)> read;

    /// A policy that shows and allows everything.
    static Policy allow_all() {
        Policy p;
        p.discover = [](const Call &, const Definition &) { return Result::ok; };
        p.visibility = [](const Call &, const Target &, Visibility &v) {
            v.visible = true;
            v.disclose_issue_uri = true;
            return Result::ok;
        };
        p.read = [](const Call &, const Target &) { return Result::ok; };
        return p;
    }
};

/// A binding's callbacks. `read` is required; an empty `resolve` plans the
/// matched URI alone (mcpr_resolve_single); an empty `complete` registers
/// no completion (it is for templates only); `size_hint` is optional
/// (mcpr_binding_callbacks.size_hint: given the target, the body's size
/// and whether it is a blob, an upper bound on the bytes the item adds to
/// the encoded result, or std::nullopt for the exact measurement; it must
/// not throw, and a throw counts as no estimate). Every member may run
/// concurrently on any thread, and (with an executor) after the read that
/// called it returned: capture by value or std::shared_ptr.
struct Binding {
    std::function<Result(const Call &, const Match &, PlanBuilder &)> resolve;
    std::function<Result(const Call &, const Target &, PayloadBuilder &)> read;
    std::function<Result(const Call &, const CompletionRequest &, CompletionBuilder &)> complete;
    std::function<std::optional<std::uint64_t>(const Target &, std::uint64_t payload_bytes, bool is_blob)> size_hint;
};

namespace detail {

/// Runs `f` behind a barrier: no exception leaves; one becomes
/// MCPR_CB_FAILED with its what() as the call's private cause.
template <class F> inline mcpr_cb_result guard(const mcpr_call *call, F &&f) noexcept {
    try {
        return static_cast<mcpr_cb_result>(std::forward<F>(f)());
    } catch (const std::exception &e) {
        mcpr_call_set_cause(call, to_c(e.what()));  // copied by the library
    } catch (...) {
        mcpr_call_set_cause(call, to_c("a C++ callback threw a non-std exception"));
    }
    return MCPR_CB_FAILED;
}

inline mcpr_cb_result policy_discover(void *ud, const mcpr_call *call, const mcpr_definition *d) {
    return guard(call, [&] {
        auto &p = *static_cast<Policy *>(ud);
        return p.discover ? p.discover(Call(call), Definition(d)) : Result::unavailable;
    });
}
inline mcpr_cb_result policy_visibility(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_visibility *out) {
    return guard(call, [&] {
        auto &p = *static_cast<Policy *>(ud);
        if (!p.visibility) {  // fail closed: hidden
            out->visible = false;
            out->disclose_issue_uri = false;
            return Result::ok;
        }
        Visibility v;
        Result r = p.visibility(Call(call), Target(t), v);
        if (v.visible.has_value()) out->visible = *v.visible;  // else left undecided for the library
        out->disclose_issue_uri = v.disclose_issue_uri;
        return r;
    });
}
inline mcpr_cb_result policy_read(void *ud, const mcpr_call *call, const mcpr_target *t) {
    return guard(call, [&] {
        auto &p = *static_cast<Policy *>(ud);
        return p.read ? p.read(Call(call), Target(t)) : Result::unavailable;
    });
}
inline void policy_release(void *ud) { delete static_cast<Policy *>(ud); }

inline mcpr_cb_result binding_resolve(void *ud, const mcpr_call *call, const mcpr_match *m, mcpr_plan_builder *plan) {
    return guard(call, [&] {
        PlanBuilder pb(plan);
        return static_cast<Binding *>(ud)->resolve(Call(call), Match(m), pb);
    });
}
inline mcpr_cb_result binding_read(void *ud, const mcpr_call *call, const mcpr_target *t, mcpr_payload_builder *out) {
    return guard(call, [&] {
        PayloadBuilder pb(out);
        return static_cast<Binding *>(ud)->read(Call(call), Target(t), pb);
    });
}
inline mcpr_cb_result binding_complete(void *ud, const mcpr_call *call, const mcpr_completion_request *q,
                                       mcpr_completion_builder *out) {
    return guard(call, [&] {
        CompletionBuilder cb(out);
        return static_cast<Binding *>(ud)->complete(Call(call), CompletionRequest(q), cb);
    });
}
inline mcpr_cb_result binding_size_hint(void *ud, const mcpr_target *t, std::uint64_t payload_bytes, bool is_blob,
                                        std::uint64_t *out_bytes) noexcept {
    try {
        std::optional<std::uint64_t> hint = static_cast<Binding *>(ud)->size_hint(Target(t), payload_bytes, is_blob);
        if (!hint) return MCPR_CB_FAILED;
        *out_bytes = *hint;
        return MCPR_CB_OK;
    } catch (...) {
        return MCPR_CB_FAILED;  // no estimate: the exact measurement
    }
}
inline void binding_release(void *ud) { delete static_cast<Binding *>(ud); }

}  // namespace detail

// ------------------------------------------------------------------ options

/// The options every call takes, whatever its method (the fields every C
/// option struct shares: timeout_ms, cancel, request_data, executor,
/// protocol_revision). ReadOptions, ListOptions and RequestOptions extend
/// it with their own; Resources::complete takes ReadOptions.
struct CallOptions {
    std::chrono::milliseconds timeout{0};  ///< caller deadline; 0 = only read_timeout
    const Cancel *cancel = nullptr;        ///< optional token
    void *request_data = nullptr;          ///< handed to every callback
    const Executor *executor = nullptr;    ///< optional; null = callbacks inline
    std::string_view protocol_revision{};  ///< negotiated revision; empty = newest
};

/// Options of Resources::read and Resources::complete (mcpr_read_options):
/// the call options only.
struct ReadOptions : CallOptions {};

/// Options of Resources::list and list_templates (mcpr_list_options).
/// `ListOptions{"tenant"}` lists the first page for scope "tenant".
struct ListOptions : CallOptions {
    ListOptions() = default;
    /// The first page (or the page after `cursor_`) for `scope_key_`.
    ListOptions(std::string_view scope_key_, std::string_view cursor_ = {}) noexcept
        : scope_key(scope_key_), cursor(cursor_) {}
    std::string_view scope_key{};  ///< the caller's authorization context (required)
    std::string_view cursor{};     ///< empty = first page
    std::uint32_t page_size = 0;   ///< 0 = default
};

/// Options of Resources::request (mcpr_request_options).
struct RequestOptions : CallOptions {
    std::string_view scope_key{};  ///< required for the list methods
    std::uint32_t page_size = 0;   ///< list methods; 0 = default
};

namespace detail {
/// Sets the shared fields of any C option struct from the call options
/// (one conversion for every method).
template <class C> void set_call(C &c, const CallOptions &o) {
    c.timeout_ms = to_ms(o.timeout);
    c.cancel = o.cancel ? o.cancel->get() : nullptr;
    c.request_data = o.request_data;
    c.executor = o.executor ? o.executor->get() : nullptr;
    c.protocol_revision = to_c(o.protocol_revision);
}
}  // namespace detail

// ------------------------------------------------------------------ registry

/// A registry reference (mcpr_resources). Copyable: a copy is another
/// reference (mcpr_resources_retain), freed by its own destructor; the
/// registry and its callback tables live until the last reference is gone
/// and every call using it has returned. A moved-from Resources is empty.
/// Calls are thread-safe; hand each thread its own copy when another thread
/// may replace or drop yours.
class Resources {
public:
    /// Takes ownership of one C registry reference.
    explicit Resources(mcpr_resources *r) noexcept : r_(r) {}
    Resources(const Resources &o) : r_(o.r_ ? mcpr_resources_retain(o.r_.get()) : nullptr) {
        if (o.r_ && !r_) throw std::bad_alloc();
    }
    Resources(Resources &&) noexcept = default;
    Resources &operator=(const Resources &o) {
        if (this != &o) *this = Resources(o);
        return *this;
    }
    Resources &operator=(Resources &&) noexcept = default;
    ~Resources() = default;

    /// resources/read of `uri`. Throws mcpr::Error when the read fails.
    Bundle read(std::string_view uri, const ReadOptions &o = ReadOptions()) const {
        mcpr_read_options c{};
        mcpr_read_options_init(&c);
        detail::set_call(c, o);
        mcpr_bundle *out = nullptr;
        detail::check([&](mcpr_error **e) { return mcpr_read(r_.get(), to_c(uri), &c, &out, e); });
        return Bundle(out);
    }

    /// One page of resources/list. Throws mcpr::Error.
    Page list(const ListOptions &o) const { return list_impl(o, mcpr_list); }

    /// One page of resources/templates/list. Throws mcpr::Error.
    Page list_templates(const ListOptions &o) const { return list_impl(o, mcpr_list_templates); }

    /// Serves one JSON-RPC request (mcpr_request): `method` and the raw
    /// `params` text (empty when absent). Client mistakes come back as an
    /// error Response; host bugs and unknown methods throw mcpr::Error
    /// (status MCPR_METHOD_NOT_HANDLED: route the request elsewhere).
    Response request(std::string_view method, std::string_view params_json,
                     const RequestOptions &o = RequestOptions()) const {
        mcpr_request_options c = c_options(o);
        mcpr_response *out = nullptr;
        detail::check(
            [&](mcpr_error **e) { return mcpr_request(r_.get(), to_c(method), to_c(params_json), &c, &out, e); });
        return Response(out);
    }

    /// Serves one whole JSON-RPC message (mcpr_message): the message text
    /// in, the Reply out (the whole response message, or what the host
    /// needs to answer a message the library does not handle). Client
    /// mistakes, malformed messages included, are answered in the Reply;
    /// host bugs (a list method without a scope key, bad options) throw
    /// mcpr::Error.
    Reply message(std::string_view message_json, const RequestOptions &o = RequestOptions()) const {
        mcpr_request_options c = c_options(o);
        mcpr_reply *out = nullptr;
        detail::check([&](mcpr_error **e) { return mcpr_message(r_.get(), to_c(message_json), &c, &out, e); });
        return Reply(out);
    }

    /// completion/complete (`ref/resource`) for `template_uri`'s
    /// `argument` = `value`, with the already-resolved arguments in
    /// `context` (name, value). Throws mcpr::Error.
    Completion complete(std::string_view template_uri, std::string_view argument, std::string_view value,
                        const std::vector<std::pair<std::string_view, std::string_view>> &context = {},
                        const ReadOptions &o = ReadOptions()) const {
        std::vector<mcpr_complete_argument> ctx;
        ctx.reserve(context.size());
        for (const auto &kv : context) ctx.push_back(mcpr_complete_argument{to_c(kv.first), to_c(kv.second)});
        mcpr_complete_params p{};
        p.template_uri = to_c(template_uri);
        p.argument.name = to_c(argument);
        p.argument.value = to_c(value);
        p.context = ctx.empty() ? nullptr : ctx.data();
        p.context_len = ctx.size();
        mcpr_read_options c{};
        mcpr_read_options_init(&c);
        detail::set_call(c, o);
        mcpr_completion *out = nullptr;
        detail::check([&](mcpr_error **e) { return mcpr_complete(r_.get(), &p, &c, &out, e); });
        return Completion(out);
    }

    /// Whether any binding registered a completion callback.
    bool completes() const noexcept { return mcpr_resources_completes(r_.get()); }

    /// The registry's 32-byte content hash (SHA-256 of its canonical
    /// descriptions: identical registries agree).
    std::array<std::uint8_t, 32> content_hash() const noexcept {
        std::array<std::uint8_t, 32> out{};
        mcpr_resources_content_hash(r_.get(), out.data());
        return out;
    }

    /// The C handle (borrowed; still owned by this object).
    const mcpr_resources *get() const noexcept { return r_.get(); }
    /// Whether this object holds a reference (false after a move).
    explicit operator bool() const noexcept { return r_ != nullptr; }

private:
    using ListFn = mcpr_status (*)(const mcpr_resources *, const mcpr_list_options *, mcpr_page **, mcpr_error **);
    Page list_impl(const ListOptions &o, ListFn fn) const {
        mcpr_list_options c{};
        mcpr_list_options_init(&c);
        detail::set_call(c, o);
        c.scope_key = to_c(o.scope_key);
        c.cursor = to_c(o.cursor);
        c.page_size = o.page_size;
        mcpr_page *out = nullptr;
        detail::check([&](mcpr_error **e) { return fn(r_.get(), &c, &out, e); });
        return Page(out);
    }

    /// The C options of request() and message().
    static mcpr_request_options c_options(const RequestOptions &o) {
        mcpr_request_options c{};
        mcpr_request_options_init(&c);
        detail::set_call(c, o);
        c.scope_key = to_c(o.scope_key);
        c.page_size = o.page_size;
        return c;
    }

    detail::Owned<mcpr_resources, mcpr_resources_free> r_;
};

/// Collects definitions, bindings, a policy and limits (mcpr_builder).
/// Move-only. build() consumes the C builder (also when it fails); every
/// later call then throws mcpr::Error (MCPR_INVALID_ARGUMENT, "builder is
/// NULL"), and destroying the object does nothing more.
class Builder {
public:
    /// Throws std::bad_alloc if no builder can be made.
    Builder() : b_(mcpr_builder_new()) {
        if (!b_) throw std::bad_alloc();
    }

    /// Registers a definition (JSON of a resource or template) with its
    /// binding. Throws mcpr::Error (then the binding's functions are
    /// destroyed here; on success the library owns them until `release`).
    Builder &add(std::string_view definition_json, Binding binding) { return add_impl(definition_json, std::move(binding), nullptr); }

    /// add() with the binding's cache hints.
    Builder &add(std::string_view definition_json, Binding binding, const CacheHints &hints) {
        mcpr_cache_hints c = detail::c_hints(hints);
        return add_impl(definition_json, std::move(binding), &c);
    }

    /// Sets (or replaces) the policy. Throws mcpr::Error.
    Builder &set_policy(Policy policy) {
        auto holder = std::make_unique<Policy>(std::move(policy));
        mcpr_policy_callbacks cb{};
        mcpr_policy_callbacks_init(&cb);
        cb.user_data = holder.get();
        cb.discover = detail::policy_discover;
        cb.visibility = detail::policy_visibility;
        cb.read = detail::policy_read;
        cb.release = detail::policy_release;
        detail::check([&](mcpr_error **e) { return mcpr_builder_set_policy(b_.get(), &cb, e); });
        holder.release();  // the library's release callback deletes it
        return *this;
    }

    /// Sets one limit (MCPR_LIMIT_*). Throws mcpr::Error.
    Builder &set_limit(mcpr_limit which, std::int64_t value) {
        detail::check([&](mcpr_error **e) { return mcpr_builder_set_limit(b_.get(), which, value, e); });
        return *this;
    }

    /// Sets the cursor key (bytes). Throws mcpr::Error.
    Builder &set_cursor_key(std::string_view key) {
        detail::check([&](mcpr_error **e) {
            return mcpr_builder_set_cursor_key(b_.get(), reinterpret_cast<const std::uint8_t *>(key.data()), key.size(), e);
        });
        return *this;
    }

    /// The registry's clock for cursor issue and expiry times (Unix
    /// milliseconds); without it, the system clock. A plain function that
    /// cannot throw (`noexcept`, checked by the compiler: the C clock has no
    /// way to report a failure, so an exception could only abort the
    /// process); `ud` is handed back and never freed, so it must outlive
    /// the registry and every call on it. Throws mcpr::Error.
    Builder &set_clock(std::uint64_t (*now_unix_ms)(void *ud) noexcept, void *ud) {
        detail::check([&](mcpr_error **e) { return mcpr_builder_set_clock(b_.get(), now_unix_ms, ud, e); });
        return *this;
    }

    /// Registry-wide cache hints. Throws mcpr::Error.
    Builder &set_cache_hints(std::chrono::milliseconds ttl, bool policy_caller_independent) {
        std::uint64_t ms = detail::to_ms(ttl);
        detail::check(
            [&](mcpr_error **e) { return mcpr_builder_set_cache_hints(b_.get(), ms, policy_caller_independent, e); });
        return *this;
    }

    /// Builds the registry. Throws mcpr::Error; consumes the C builder
    /// either way (mcpr_builder_build frees it).
    Resources build() {
        mcpr_resources *out = nullptr;
        mcpr_builder *b = b_.release();  // mcpr_builder_build frees it, built or not
        detail::check([&](mcpr_error **e) { return mcpr_builder_build(b, &out, e); });
        return Resources(out);
    }

    /// The C handle (borrowed).
    mcpr_builder *get() const noexcept { return b_.get(); }

private:
    Builder &add_impl(std::string_view definition_json, Binding binding, const mcpr_cache_hints *hints) {
        if (!binding.read)
            throw Error(MCPR_INVALID_CONFIGURATION, "a binding needs a read callback", std::string(), detail::jsonrpc_internal_error,
                        std::string());
        auto holder = std::make_unique<Binding>(std::move(binding));
        mcpr_binding_callbacks cb{};
        mcpr_binding_callbacks_init(&cb);
        cb.user_data = holder.get();
        cb.resolve = holder->resolve ? detail::binding_resolve : mcpr_resolve_single;
        cb.read = detail::binding_read;
        cb.release = detail::binding_release;
        cb.complete = holder->complete ? detail::binding_complete : nullptr;
        cb.size_hint = holder->size_hint ? detail::binding_size_hint : nullptr;
        detail::check([&](mcpr_error **e) {
            return hints ? mcpr_builder_add_with_hints(b_.get(), to_c(definition_json), &cb, hints, e)
                         : mcpr_builder_add(b_.get(), to_c(definition_json), &cb, e);
        });
        holder.release();  // the library's release callback deletes it
        return *this;
    }

    detail::Owned<mcpr_builder, mcpr_builder_free> b_;
};

}  // namespace mcpr

// Observers, metrics and event hashes (mcpr::set_observer, mcpr::Event).
#include "mcp_resources_observe.hpp"

#endif  // MCP_RESOURCES_HPP
