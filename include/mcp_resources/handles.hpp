// mcp_resources/handles.hpp: the small handles (Cancel, Executor) and the results
// (Bundle, Page, Response, Embedding, Completion).
// Part of the C++ wrapper; include <mcp_resources.hpp>, which includes
// every part in order (each part also includes the parts it needs).
#ifndef MCP_RESOURCES_HANDLES_HPP
#define MCP_RESOURCES_HANDLES_HPP

#include "base.hpp"

namespace mcpr {

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

/// Result `_meta` members the host adds to every result of the calls given
/// it (mcpr_result_meta), for example `io.modelcontextprotocol/serverInfo`:
/// validated once here, then shared by any number of calls on any threads
/// (give a pointer in the options). Move-only; a call keeps its own
/// reference, so the object may go once its calls have begun.
class ResultMeta {
public:
    /// Validates a JSON object of members (the rules definitions are held
    /// to, at most 63 KiB, never the library's reserved key). Throws
    /// mcpr::Error (MCPR_INVALID_CONFIGURATION) naming what is wrong.
    explicit ResultMeta(std::string_view json) {
        mcpr_result_meta *raw = nullptr;
        detail::check([&](mcpr_error **e) { return mcpr_result_meta_new(to_c(json), &raw, e); });
        p_.reset(raw);
    }
    /// The compact members, without the enclosing braces (borrowed).
    std::string_view members() const noexcept { return to_view(mcpr_result_meta_members(p_.get())); }
    /// The C handle (borrowed).
    const mcpr_result_meta *get() const noexcept { return p_.get(); }

private:
    detail::Owned<mcpr_result_meta, mcpr_result_meta_free> p_;
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
    /// Whether it is an InputRequiredResult (a callback asked for input
    /// first; BEHAVIOUR §18): still the `result` to send.
    bool is_input_required() const noexcept { return mcpr_bundle_is_input_required(p_.get()); }
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
    /// Whether a read result is an InputRequiredResult (BEHAVIOUR §18).
    bool is_input_required() const noexcept { return mcpr_response_is_input_required(p_.get()); }
    /// The C handle (borrowed).
    const mcpr_response *get() const noexcept { return p_.get(); }

private:
    detail::Owned<mcpr_response, mcpr_response_free> p_;
};

/// Resources embedded in a tool result (mcpr_embedding), made by
/// Resources::embed. Move-only.
class Embedding {
public:
    /// Takes ownership of a C embedding.
    explicit Embedding(mcpr_embedding *p) noexcept : p_(p) {}
    /// The content blocks as one JSON array, in URI order.
    std::string_view blocks_json() const noexcept { return to_view(mcpr_embedding_blocks_json(p_.get())); }
    /// How many blocks.
    std::size_t block_count() const noexcept { return mcpr_embedding_block_count(p_.get()); }
    /// Block `i`'s JSON object (empty out of range).
    std::string_view block(std::size_t i) const noexcept { return to_view(mcpr_embedding_block(p_.get(), i)); }
    /// A whole CallToolResult holding the blocks: send it as the `result`.
    std::string_view tool_result_json() const noexcept { return to_view(mcpr_embedding_tool_result_json(p_.get())); }
    /// How many URIs were given.
    std::size_t uri_count() const noexcept { return mcpr_embedding_uri_count(p_.get()); }
    /// MCPR_OK when URI `i` gave blocks, else why it gave none (for the host only).
    mcpr_status uri_status(std::size_t i) const noexcept { return mcpr_embedding_uri_status(p_.get(), i); }
    /// Blocks URI `i` gave.
    std::size_t uri_block_count(std::size_t i) const noexcept { return mcpr_embedding_uri_block_count(p_.get(), i); }
    /// Links among URI `i`'s blocks.
    std::size_t uri_link_count(std::size_t i) const noexcept { return mcpr_embedding_uri_link_count(p_.get(), i); }
    /// Whether URI `i`'s read was partial.
    bool uri_is_partial(std::size_t i) const noexcept { return mcpr_embedding_uri_is_partial(p_.get(), i); }
    /// The private cause behind URI `i` giving nothing (log it, never send it).
    std::string_view uri_cause(std::size_t i) const noexcept { return to_view(mcpr_embedding_uri_cause(p_.get(), i)); }
    /// The C handle (borrowed).
    const mcpr_embedding *get() const noexcept { return p_.get(); }

private:
    detail::Owned<mcpr_embedding, mcpr_embedding_free> p_;
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

}  // namespace mcpr

#endif  // MCP_RESOURCES_HANDLES_HPP
