// mcp_resources/registry.hpp: the options of every call, the registry (Resources)
// and its Builder.
// Part of the C++ wrapper; include <mcp_resources.hpp>, which includes
// every part in order (each part also includes the parts it needs).
#ifndef MCP_RESOURCES_REGISTRY_HPP
#define MCP_RESOURCES_REGISTRY_HPP

#include "async.hpp"
#include "callbacks.hpp"
#include "handles.hpp"

namespace mcpr {

// ------------------------------------------------------------------ options

/// A request's trace context as the host read it (mcpr_trace_context):
/// views, read during the call only.
struct TraceContext {
    std::string_view traceparent{};  ///< W3C Trace Context `traceparent`
    std::string_view tracestate{};   ///< W3C Trace Context `tracestate`
    std::string_view baggage{};      ///< W3C Baggage `baggage`
};

/// The options every call takes, whatever its method (the fields every C
/// option struct shares: timeout_ms, cancel, request_data, executor,
/// protocol_revision, result_meta, trace). ReadOptions, ListOptions,
/// RequestOptions and EmbedOptions extend it with their own;
/// Resources::complete takes ReadOptions.
struct CallOptions {
    std::chrono::milliseconds timeout{0};  ///< caller deadline; 0 = only read_timeout
    const Cancel *cancel = nullptr;        ///< optional token
    void *request_data = nullptr;          ///< handed to every callback
    const Executor *executor = nullptr;    ///< optional; null = callbacks inline
    std::string_view protocol_revision{};  ///< negotiated revision; empty = newest
    const ResultMeta *result_meta = nullptr;  ///< optional members merged into the result's _meta
    /// Optional trace context (W3C `traceparent`, `tracestate`, W3C
    /// `baggage`) handed to every callback (Call::traceparent, ...); for
    /// Resources::request the members in the request's params `_meta` take
    /// its place. Empty members are absent.
    TraceContext trace{};
};

/// Options of Resources::read and Resources::complete (mcpr_read_options):
/// the call options, and what an input-required read and its retry need
/// (BEHAVIOUR §18; read only, all optional; see mcpr_read_options).
struct ReadOptions : CallOptions {
    std::string_view scope_key{};            ///< the caller's principal; required when a callback asks
    std::string_view client_capabilities{};  ///< the client's ClientCapabilities JSON; empty = none
    std::string_view request_state{};        ///< the retry's requestState; empty = none
    std::string_view input_responses{};      ///< the retry's inputResponses JSON; empty = none
    std::string_view params{};               ///< the request's params JSON (the state is bound to it)
};

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
    bool resource_tools = false;   ///< serve tools/call for read_resource and list_resources
    std::string_view client_capabilities{};  ///< the client's ClientCapabilities JSON (reads that ask)
    std::string_view request_id{};         ///< the request's JSON-RPC id as JSON (subscriptions/listen)
    std::uint32_t host_notifications = 0;  ///< MCPR_NOTIFY_TOOLS/PROMPTS_LIST_CHANGED the host delivers
};

/// One subscriber of a change notification (mcpr_subscriber), as the host
/// recorded it from a Subscription.
struct Subscriber {
    void *request_data = nullptr;          ///< its identity, handed to the policy
    std::string_view protocol_revision{};  ///< Subscription::protocol_revision()
    std::string_view subscription_id{};    ///< Subscription::id(); required from 2026-07-28 on
    std::string_view uri{};                ///< notify_updated: the URI subscribed to, when not the changed one
    std::optional<std::array<std::uint8_t, 32>> listing{};  ///< notify_listing_changed: the fingerprint before
};

/// Options of the notification calls (mcpr_notify_options): the call
/// options' timeout (of the whole call), cancel, executor and trace (the
/// call's, handed to every callback, in no message); their request_data
/// and protocol_revision are not used (each Subscriber brings its own),
/// nor result_meta (a notification is no result).
struct NotifyOptions : CallOptions {};

/// Options of Resources::embed (mcpr_embed_options): the call options, for
/// the whole embedding (one deadline for all its URIs), and the form.
struct EmbedOptions : CallOptions {
    mcpr_embed_form form = MCPR_EMBED_RESOURCE;  ///< MCPR_EMBED_RESOURCE or MCPR_EMBED_LINK
    bool over_budget_links = false;              ///< over-budget items (and URIs) as resource_link blocks
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
    c.result_meta = o.result_meta ? o.result_meta->get() : nullptr;
    c.trace = mcpr_trace_context{to_c(o.trace.traceparent), to_c(o.trace.tracestate), to_c(o.trace.baggage)};
}

/// The C subscribers of `subs` (their strings and listings borrowed).
inline std::vector<mcpr_subscriber> c_subscribers(const std::vector<Subscriber> &subs) {
    std::vector<mcpr_subscriber> out(subs.size());
    for (std::size_t i = 0; i < subs.size(); i++) {
        mcpr_subscriber_init(&out[i]);
        out[i].request_data = subs[i].request_data;
        out[i].protocol_revision = to_c(subs[i].protocol_revision);
        out[i].subscription_id = to_c(subs[i].subscription_id);
        out[i].uri = to_c(subs[i].uri);
        out[i].listing = subs[i].listing ? subs[i].listing->data() : nullptr;
    }
    return out;
}

/// The C options of `o`: the three call fields a notification call takes.
inline mcpr_notify_options c_notify(const NotifyOptions &o) {
    mcpr_notify_options c{};
    mcpr_notify_options_init(&c);
    c.timeout_ms = to_ms(o.timeout);
    c.cancel = o.cancel ? o.cancel->get() : nullptr;
    c.executor = o.executor ? o.executor->get() : nullptr;
    c.trace = mcpr_trace_context{to_c(o.trace.traceparent), to_c(o.trace.tracestate), to_c(o.trace.baggage)};
    return c;
}
}  // namespace detail

/// The `list_resources` and `read_resource` Tool definitions as a JSON
/// array, for your tools/list (mcpr_resource_tools_definitions). Static:
/// valid as long as the library is loaded. Throws mcpr::Error for an
/// unknown revision.
inline std::string_view resource_tool_definitions(std::string_view protocol_revision = {}) {
    mcpr_str out{};
    detail::check([&](mcpr_error **e) { return mcpr_resource_tools_definitions(to_c(protocol_revision), &out, e); });
    return to_view(out);
}

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
        mcpr_read_options c = c_read_options(o);
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
        mcpr_request_options c = c_request_options(o);
        mcpr_response *out = nullptr;
        detail::check(
            [&](mcpr_error **e) { return mcpr_request(r_.get(), to_c(method), to_c(params_json), &c, &out, e); });
        return Response(out);
    }

    /// Resources embedded in a tool result (mcpr_embed): for each URI the
    /// resource blocks a read gives (or one resource_link block), nothing
    /// for a URI the caller may not read. Throws mcpr::Error when the whole
    /// embedding fails (cancellation, deadline, too many URIs, size).
    Embedding embed(const std::vector<std::string_view> &uris, const EmbedOptions &o = EmbedOptions()) const {
        std::vector<mcpr_str> c_uris;
        c_uris.reserve(uris.size());
        for (std::string_view u : uris) c_uris.push_back(to_c(u));
        mcpr_embed_options c{};
        mcpr_embed_options_init(&c);
        detail::set_call(c, o);
        c.form = o.form;
        c.over_budget_links = o.over_budget_links;
        mcpr_embedding *out = nullptr;
        detail::check([&](mcpr_error **e) {
            return mcpr_embed(r_.get(), c_uris.empty() ? nullptr : c_uris.data(), c_uris.size(), &c, &out, e);
        });
        return Embedding(out);
    }

    /// Decides one update (mcpr_notify_updated): `uri` changed; each
    /// subscriber, rechecked now, gets its message or nothing. Throws
    /// mcpr::Error (nothing is to be sent then).
    Notifications notify_updated(std::string_view uri, const std::vector<Subscriber> &subscribers,
                                 const NotifyOptions &o = NotifyOptions()) const {
        auto subs = detail::c_subscribers(subscribers);
        auto c = detail::c_notify(o);
        mcpr_notifications *out = nullptr;
        detail::check([&](mcpr_error **e) {
            return mcpr_notify_updated(r_.get(), to_c(uri), subs.empty() ? nullptr : subs.data(), subs.size(), &c,
                                       &out, e);
        });
        return Notifications(out);
    }

    /// Decides a list change after a permission change
    /// (mcpr_notify_listing_changed): every subscriber needs its listing
    /// from before. Throws mcpr::Error.
    Notifications notify_listing_changed(const std::vector<Subscriber> &subscribers,
                                         const NotifyOptions &o = NotifyOptions()) const {
        auto subs = detail::c_subscribers(subscribers);
        auto c = detail::c_notify(o);
        mcpr_notifications *out = nullptr;
        detail::check([&](mcpr_error **e) {
            return mcpr_notify_listing_changed(r_.get(), subs.empty() ? nullptr : subs.data(), subs.size(), &c, &out,
                                               e);
        });
        return Notifications(out);
    }

    /// The caller's listing fingerprint (mcpr_listing_fingerprint), under
    /// `o.request_data`. Throws mcpr::Error.
    std::array<std::uint8_t, 32> listing_fingerprint(const ReadOptions &o = ReadOptions()) const {
        mcpr_read_options c{};
        mcpr_read_options_init(&c);
        detail::set_call(c, o);
        std::array<std::uint8_t, 32> out{};
        detail::check([&](mcpr_error **e) { return mcpr_listing_fingerprint(r_.get(), &c, out.data(), e); });
        return out;
    }

    /// The `resources` capability object to declare for `protocol_revision`
    /// (mcpr_resources_capability; a static string). Throws mcpr::Error.
    std::string_view capability(std::string_view protocol_revision = {}) const {
        mcpr_str out{};
        detail::check([&](mcpr_error **e) { return mcpr_resources_capability(r_.get(), to_c(protocol_revision), &out, e); });
        return to_view(out);
    }

    /// Serves one whole JSON-RPC message (mcpr_message): the message text
    /// in, the Reply out (the whole response message, or what the host
    /// needs to answer a message the library does not handle). Client
    /// mistakes, malformed messages included, are answered in the Reply;
    /// host bugs (a list method without a scope key, bad options) throw
    /// mcpr::Error.
    Reply message(std::string_view message_json, const RequestOptions &o = RequestOptions()) const {
        mcpr_request_options c = c_request_options(o);
        mcpr_reply *out = nullptr;
        detail::check([&](mcpr_error **e) { return mcpr_message(r_.get(), to_c(message_json), &c, &out, e); });
        return Reply(out);
    }

    /// tools/call of the resource tools (mcpr_resource_tools_call): the
    /// raw params text in, the Response to send out (tool execution errors
    /// are results with isError). Another tool throws mcpr::Error with
    /// status MCPR_METHOD_NOT_HANDLED: call your own.
    Response call_resource_tool(std::string_view params_json, const RequestOptions &o = RequestOptions()) const {
        mcpr_request_options c = c_request_options(o);
        mcpr_response *out = nullptr;
        detail::check(
            [&](mcpr_error **e) { return mcpr_resource_tools_call(r_.get(), to_c(params_json), &c, &out, e); });
        return Response(out);
    }

    /// completion/complete (`ref/resource`) for `template_uri`'s
    /// `argument` = `value`, with the already-resolved arguments in
    /// `context` (name, value). Throws mcpr::Error.
    Completion complete(std::string_view template_uri, std::string_view argument, std::string_view value,
                        const std::vector<std::pair<std::string_view, std::string_view>> &context = {},
                        const ReadOptions &o = ReadOptions()) const {
        CompleteInput in(template_uri, argument, value, context);
        mcpr_read_options c{};
        mcpr_read_options_init(&c);
        detail::set_call(c, o);
        mcpr_completion *out = nullptr;
        detail::check([&](mcpr_error **e) { return mcpr_complete(r_.get(), &in.params, &c, &out, e); });
        return Completion(out);
    }

    // ------------------------------------------------ asynchronous calls
    //
    // The *_async members start the call on `executor` and return at once
    // (BEHAVIOUR §20): no thread waits while it is in flight. `done` (any
    // callable taking an mcpr::Outcome<T>; moved into the call) runs
    // exactly once, on an executor thread, never inside the start, with
    // what the blocking call would have returned or thrown; it is destroyed
    // there after it returned. Return promptly from it (it may run on the
    // executor's watch thread) and never call a blocking call of the
    // library from it. An exception escaping `done` is caught and dropped.
    // A host mistake (bad options, an unknown revision, a list without a
    // scope key, a method the library does not serve) throws mcpr::Error
    // from the start, and `done` is destroyed without running. The call
    // holds its own registry and executor references: this Resources, the
    // Executor and the options' token may go as soon as the start
    // returned. `executor` replaces `o.executor`; `o.request_data` must
    // live until `done`. The returned AsyncCall cancels the call.
    // The overloads without `done` return a std::future instead (its get()
    // throws the mcpr::Error); cancel them through `o.cancel`.

    /// read() as an asynchronous call (mcpr_read_start).
    template <class F>
    AsyncCall read_async(std::string_view uri, const ReadOptions &o, const Executor &executor, F &&done) const {
        return read_start(uri, o, executor, std::forward<F>(done), true);
    }
    /// read() as an asynchronous call whose outcome is a std::future.
    std::future<Bundle> read_async(std::string_view uri, const ReadOptions &o, const Executor &executor) const {
        return future_of<Bundle>([&](detail::PromiseDone<Bundle> d) { read_start(uri, o, executor, std::move(d), false); });
    }

    /// list() as an asynchronous call (mcpr_list_start).
    template <class F> AsyncCall list_async(const ListOptions &o, const Executor &executor, F &&done) const {
        return list_start(o, executor, mcpr_list_start, std::forward<F>(done), true);
    }
    std::future<Page> list_async(const ListOptions &o, const Executor &executor) const {
        return future_of<Page>([&](detail::PromiseDone<Page> d) { list_start(o, executor, mcpr_list_start, std::move(d), false); });
    }

    /// list_templates() as an asynchronous call (mcpr_list_templates_start).
    template <class F> AsyncCall list_templates_async(const ListOptions &o, const Executor &executor, F &&done) const {
        return list_start(o, executor, mcpr_list_templates_start, std::forward<F>(done), true);
    }
    std::future<Page> list_templates_async(const ListOptions &o, const Executor &executor) const {
        return future_of<Page>(
            [&](detail::PromiseDone<Page> d) { list_start(o, executor, mcpr_list_templates_start, std::move(d), false); });
    }

    /// request() as an asynchronous call (mcpr_request_start): a method the
    /// library does not serve throws MCPR_METHOD_NOT_HANDLED from the start;
    /// a `ref/prompt` completion reaches `done` with that status.
    template <class F>
    AsyncCall request_async(std::string_view method, std::string_view params_json, const RequestOptions &o,
                            const Executor &executor, F &&done) const {
        return request_start(method, params_json, o, executor, std::forward<F>(done), true);
    }
    std::future<Response> request_async(std::string_view method, std::string_view params_json, const RequestOptions &o,
                                        const Executor &executor) const {
        return future_of<Response>(
            [&](detail::PromiseDone<Response> d) { request_start(method, params_json, o, executor, std::move(d), false); });
    }

    /// message() as an asynchronous call (mcpr_message_start): every message
    /// is answered through `done`; only host mistakes throw.
    template <class F>
    AsyncCall message_async(std::string_view message_json, const RequestOptions &o, const Executor &executor,
                            F &&done) const {
        return message_start(message_json, o, executor, std::forward<F>(done), true);
    }
    std::future<Reply> message_async(std::string_view message_json, const RequestOptions &o,
                                     const Executor &executor) const {
        return future_of<Reply>(
            [&](detail::PromiseDone<Reply> d) { message_start(message_json, o, executor, std::move(d), false); });
    }

    /// complete() as an asynchronous call (mcpr_complete_start).
    template <class F>
    AsyncCall complete_async(std::string_view template_uri, std::string_view argument, std::string_view value,
                             const std::vector<std::pair<std::string_view, std::string_view>> &context,
                             const ReadOptions &o, const Executor &executor, F &&done) const {
        return complete_start(template_uri, argument, value, context, o, executor, std::forward<F>(done), true);
    }
    std::future<Completion> complete_async(std::string_view template_uri, std::string_view argument,
                                           std::string_view value,
                                           const std::vector<std::pair<std::string_view, std::string_view>> &context,
                                           const ReadOptions &o, const Executor &executor) const {
        return future_of<Completion>([&](detail::PromiseDone<Completion> d) {
            complete_start(template_uri, argument, value, context, o, executor, std::move(d), false);
        });
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
    /// The C form of a completion's input (the context array it points at
    /// lives as long as this object).
    struct CompleteInput {
        CompleteInput(std::string_view template_uri, std::string_view argument, std::string_view value,
                      const std::vector<std::pair<std::string_view, std::string_view>> &context)
            : params{} {
            args.reserve(context.size());
            for (const auto &kv : context) args.push_back(mcpr_complete_argument{to_c(kv.first), to_c(kv.second)});
            params.template_uri = to_c(template_uri);
            params.argument.name = to_c(argument);
            params.argument.value = to_c(value);
            params.context = args.empty() ? nullptr : args.data();
            params.context_len = args.size();
        }
        CompleteInput(const CompleteInput &) = delete;
        CompleteInput &operator=(const CompleteInput &) = delete;
        std::vector<mcpr_complete_argument> args;
        mcpr_complete_params params;
    };

    static mcpr_read_options c_read_options(const ReadOptions &o) {
        mcpr_read_options c{};
        mcpr_read_options_init(&c);
        detail::set_call(c, o);
        c.scope_key = to_c(o.scope_key);
        c.client_capabilities = to_c(o.client_capabilities);
        c.request_state = to_c(o.request_state);
        c.input_responses = to_c(o.input_responses);
        c.params = to_c(o.params);
        return c;
    }

    static mcpr_list_options c_list_options(const ListOptions &o) {
        mcpr_list_options c{};
        mcpr_list_options_init(&c);
        detail::set_call(c, o);
        c.scope_key = to_c(o.scope_key);
        c.cursor = to_c(o.cursor);
        c.page_size = o.page_size;
        return c;
    }

    /// Runs `start` with a PromiseDone and returns its future.
    template <class T, class Start> static std::future<T> future_of(Start &&start) {
        detail::PromiseDone<T> d;
        std::future<T> f = d.promise.get_future();
        std::forward<Start>(start)(std::move(d));
        return f;
    }

    template <class F>
    AsyncCall read_start(std::string_view uri, const ReadOptions &o, const Executor &executor, F &&done,
                         bool own_token) const {
        mcpr_read_options c = c_read_options(o);
        c.executor = executor.get();
        return detail::start_async<Bundle, mcpr_bundle>(
            std::forward<F>(done), c.cancel, own_token,
            [&](const mcpr_cancel *token, mcpr_read_done_fn fn, void *data, mcpr_error **e) {
                c.cancel = token;
                return mcpr_read_start(r_.get(), to_c(uri), &c, fn, data, e);
            });
    }

    using ListStartFn = mcpr_status (*)(const mcpr_resources *, const mcpr_list_options *, mcpr_list_done_fn, void *,
                                        mcpr_error **);
    template <class F>
    AsyncCall list_start(const ListOptions &o, const Executor &executor, ListStartFn start, F &&done,
                         bool own_token) const {
        mcpr_list_options c = c_list_options(o);
        c.executor = executor.get();
        return detail::start_async<Page, mcpr_page>(
            std::forward<F>(done), c.cancel, own_token,
            [&](const mcpr_cancel *token, mcpr_list_done_fn fn, void *data, mcpr_error **e) {
                c.cancel = token;
                return start(r_.get(), &c, fn, data, e);
            });
    }

    template <class F>
    AsyncCall request_start(std::string_view method, std::string_view params_json, const RequestOptions &o,
                            const Executor &executor, F &&done, bool own_token) const {
        mcpr_request_options c = c_request_options(o);
        c.executor = executor.get();
        return detail::start_async<Response, mcpr_response>(
            std::forward<F>(done), c.cancel, own_token,
            [&](const mcpr_cancel *token, mcpr_request_done_fn fn, void *data, mcpr_error **e) {
                c.cancel = token;
                return mcpr_request_start(r_.get(), to_c(method), to_c(params_json), &c, fn, data, e);
            });
    }

    template <class F>
    AsyncCall message_start(std::string_view message_json, const RequestOptions &o, const Executor &executor, F &&done,
                            bool own_token) const {
        mcpr_request_options c = c_request_options(o);
        c.executor = executor.get();
        return detail::start_async<Reply, mcpr_reply>(
            std::forward<F>(done), c.cancel, own_token,
            [&](const mcpr_cancel *token, mcpr_message_done_fn fn, void *data, mcpr_error **e) {
                c.cancel = token;
                return mcpr_message_start(r_.get(), to_c(message_json), &c, fn, data, e);
            });
    }

    template <class F>
    AsyncCall complete_start(std::string_view template_uri, std::string_view argument, std::string_view value,
                             const std::vector<std::pair<std::string_view, std::string_view>> &context,
                             const ReadOptions &o, const Executor &executor, F &&done, bool own_token) const {
        CompleteInput in(template_uri, argument, value, context);
        mcpr_read_options c{};
        mcpr_read_options_init(&c);
        detail::set_call(c, o);
        c.executor = executor.get();
        return detail::start_async<Completion, mcpr_completion>(
            std::forward<F>(done), c.cancel, own_token,
            [&](const mcpr_cancel *token, mcpr_complete_done_fn fn, void *data, mcpr_error **e) {
                c.cancel = token;
                return mcpr_complete_start(r_.get(), &in.params, &c, fn, data, e);
            });
    }

    static mcpr_request_options c_request_options(const RequestOptions &o) {
        mcpr_request_options c{};
        mcpr_request_options_init(&c);
        detail::set_call(c, o);
        c.scope_key = to_c(o.scope_key);
        c.page_size = o.page_size;
        c.resource_tools = o.resource_tools;
        c.client_capabilities = to_c(o.client_capabilities);
        c.request_id = to_c(o.request_id);
        c.host_notifications = o.host_notifications;
        return c;
    }

    using ListFn = mcpr_status (*)(const mcpr_resources *, const mcpr_list_options *, mcpr_page **, mcpr_error **);
    Page list_impl(const ListOptions &o, ListFn fn) const {
        mcpr_list_options c = c_list_options(o);
        mcpr_page *out = nullptr;
        detail::check([&](mcpr_error **e) { return fn(r_.get(), &c, &out, e); });
        return Page(out);
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
        if (holder->decide_plan) cb.decide_plan = detail::policy_decide_plan;  // only when given
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

    /// Declares the resource notifications the host delivers
    /// (MCPR_NOTIFY_RESOURCE_UPDATES, MCPR_NOTIFY_RESOURCES_LIST_CHANGED).
    /// Throws mcpr::Error.
    Builder &set_notifications(std::uint32_t notifications) {
        detail::check([&](mcpr_error **e) { return mcpr_builder_set_notifications(b_.get(), notifications, e); });
        return *this;
    }

    /// The JSON-RPC error of a read that asks for input on a revision
    /// before 2026-07-28 (mcpr_builder_set_input_unsupported_error). Throws
    /// mcpr::Error for a reserved code or a bad message.
    Builder &set_input_unsupported_error(std::int32_t code, std::string_view message) {
        detail::check([&](mcpr_error **e) {
            return mcpr_builder_set_input_unsupported_error(b_.get(), code, to_c(message), e);
        });
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

/// Two registries compared once, for list changes after a reload
/// (mcpr_list_change). Move-only; keeps the policies alive, not the
/// registries.
class ListChange {
public:
    /// Compares `old_resources` with `new_resources`. Throws mcpr::Error.
    ListChange(const Resources &old_resources, const Resources &new_resources) {
        mcpr_list_change *out = nullptr;
        detail::check(
            [&](mcpr_error **e) { return mcpr_list_change_new(old_resources.get(), new_resources.get(), &out, e); });
        p_.reset(out);
    }
    /// How many definitions differ (0: nobody is ever told).
    std::size_t size() const noexcept { return mcpr_list_change_count(p_.get()); }
    /// Decides the change for `subscribers` (mcpr_notify_list_changed).
    /// Throws mcpr::Error.
    Notifications notify(const std::vector<Subscriber> &subscribers, const NotifyOptions &o = NotifyOptions()) const {
        auto subs = detail::c_subscribers(subscribers);
        auto c = detail::c_notify(o);
        mcpr_notifications *out = nullptr;
        detail::check([&](mcpr_error **e) {
            return mcpr_notify_list_changed(p_.get(), subs.empty() ? nullptr : subs.data(), subs.size(), &c, &out, e);
        });
        return Notifications(out);
    }

private:
    detail::Owned<mcpr_list_change, mcpr_list_change_free> p_;
};

/// The result ending a listen stream gracefully, for subscription id
/// `id_json` (mcpr_notify_listen_closed): send its json() as the listen
/// request's result. Throws mcpr::Error.
inline Response listen_closed(std::string_view id_json) {
    mcpr_response *out = nullptr;
    detail::check([&](mcpr_error **e) { return mcpr_notify_listen_closed(to_c(id_json), &out, e); });
    return Response(out);
}

}  // namespace mcpr

#endif  // MCP_RESOURCES_REGISTRY_HPP
