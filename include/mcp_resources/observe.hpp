// mcp_resources/observe.hpp: observability in the C++ wrapper
// (docs/C-API.md, "Observability"; docs/BEHAVIOUR.md §19).
// Part of the C++ wrapper; include <mcp_resources.hpp>, which includes
// every part in order (each part also includes the parts it needs).
//
// - mcpr::set_observer(builder, lambda, options): the observer as a
//   std::function taking an mcpr::Event, behind an exception barrier (an
//   exception out of it is swallowed: nothing an observer does changes a
//   result). The heap object holding the function is deleted by the
//   table's `release`, which runs exactly once.
// - mcpr::Event: a view of the mcpr_event lent to the observer, valid only
//   until the lambda returns (copy what you keep: to_json() gives a line).
// - mcpr::metrics(resources, method, outcome) and mcpr::event_hash.
#ifndef MCP_RESOURCES_OBSERVE_HPP
#define MCP_RESOURCES_OBSERVE_HPP

#include "registry.hpp"

namespace mcpr {

/// A keyed event hash (mcpr_event_uri_hash, mcpr_resources_event_hash).
using EventHash = std::array<std::uint8_t, MCPR_EVENT_HASH_BYTES>;

/// One event, lent to the observer until it returns (see mcpr_event for
/// every field; `c()` gives them all). Members named private_* and events
/// with is_private() true are for the host's own logs only.
class Event {
public:
    explicit Event(const mcpr_event *e) noexcept : e_(e) {}

    bool is_call() const noexcept { return e_->kind == MCPR_EVENT_CALL; }
    bool is_decision() const noexcept { return e_->kind == MCPR_EVENT_DECISION; }
    std::string_view method() const noexcept { return to_view(e_->method); }
    std::string_view protocol_revision() const noexcept { return to_view(e_->protocol_revision); }
    std::uint64_t call_id() const noexcept { return e_->call_id; }
    void *request_data() const noexcept { return e_->request_data; }
    /// Call events: MCPR_OK or the call's failure.
    mcpr_status status() const noexcept { return e_->status; }
    std::chrono::nanoseconds duration() const noexcept {
        return std::chrono::nanoseconds(static_cast<std::int64_t>(e_->duration_ns));
    }
    /// Calls on an executor: the wait of the call's first job in its queue.
    std::optional<std::chrono::nanoseconds> queue_wait() const noexcept {
        if (!e_->has_queue_wait) return std::nullopt;
        return std::chrono::nanoseconds(static_cast<std::int64_t>(e_->queue_wait_ns));
    }
    bool partial() const noexcept { return e_->partial; }
    /// The URI in plain, only where the disclosure rule allows (else empty).
    std::string_view uri() const noexcept { return to_view(e_->uri); }
    /// The keyed hash of the URI the event is about (never for anything hidden).
    std::optional<EventHash> uri_hash() const noexcept {
        EventHash h{};
        if (!mcpr_event_uri_hash(e_, h.data())) return std::nullopt;
        return h;
    }
    /// A listing's scope key, hashed (never the key).
    std::optional<EventHash> scope_key_hash() const noexcept {
        EventHash h{};
        if (!mcpr_event_scope_key_hash(e_, h.data())) return std::nullopt;
        return h;
    }
    /// Decision events: MCPR_DECISION_* and its name.
    std::uint32_t rule() const noexcept { return e_->rule; }
    std::string_view rule_name() const noexcept { return to_view(e_->rule_name); }
    /// Decision events: MCPR_SUBJECT_*.
    std::uint32_t subject() const noexcept { return e_->subject; }
    /// Decision events: MCPR_PHASE_*.
    mcpr_phase phase() const noexcept { return e_->phase; }
    /// Decision events: the issue given to an item, or MCPR_OK.
    mcpr_status issue() const noexcept { return e_->issue; }
    /// Decision events about what the caller may not learn.
    bool is_private() const noexcept { return e_->is_private; }
    /// Private: the failure's or the item's private cause.
    std::string_view private_cause() const noexcept { return to_view(mcpr_event_private_cause(e_)); }
    /// One JSON line (private members under "private" when asked; empty for
    /// a private decision without them).
    std::string_view to_json(bool with_private = false) const noexcept {
        return to_view(mcpr_event_json(e_, with_private));
    }
    /// Every field.
    const mcpr_event &c() const noexcept { return *e_; }

private:
    const mcpr_event *e_;
};

/// What an observer asks for besides call events.
struct ObserverOptions {
    bool decisions = false;         ///< MCPR_OBSERVE_DECISIONS
    bool callback_timings = false;  ///< MCPR_OBSERVE_CALLBACK_TIMINGS
};

/// An observer: called on the calling thread or an executor worker,
/// concurrently; it must not block.
using Observer = std::function<void(const Event &)>;

namespace detail {
inline void observer_event(void *ud, const mcpr_event *e) noexcept {
    try {
        (*static_cast<Observer *>(ud))(Event(e));
    } catch (...) {
        // Contained: nothing an observer does changes a result.
    }
}
inline void observer_release(void *ud) { delete static_cast<Observer *>(ud); }
}  // namespace detail

/// Sets (or replaces) the builder's observer. Throws mcpr::Error (the
/// function is then destroyed here).
inline Builder &set_observer(Builder &builder, Observer observer, ObserverOptions options = ObserverOptions()) {
    if (!observer)
        throw Error(MCPR_INVALID_CONFIGURATION, "an observer needs a function", std::string(),
                    detail::jsonrpc_internal_error, std::string());
    auto holder = std::make_unique<Observer>(std::move(observer));
    mcpr_observer_callbacks cb{};
    mcpr_observer_callbacks_init(&cb);
    cb.user_data = holder.get();
    cb.on_event = detail::observer_event;
    cb.release = detail::observer_release;
    cb.flags = (options.decisions ? MCPR_OBSERVE_DECISIONS : 0u) |
               (options.callback_timings ? MCPR_OBSERVE_CALLBACK_TIMINGS : 0u);
    detail::check([&](mcpr_error **e) { return mcpr_builder_set_observer(builder.get(), &cb, e); });
    holder.release();  // the library's release callback deletes it
    return builder;
}

/// Sets the event hash key (32 to 1024 bytes). Throws mcpr::Error.
inline Builder &set_event_key(Builder &builder, std::string_view key) {
    detail::check([&](mcpr_error **e) {
        return mcpr_builder_set_event_key(builder.get(), reinterpret_cast<const std::uint8_t *>(key.data()),
                                          key.size(), e);
    });
    return builder;
}

/// The calls of one method with one outcome (mcpr_call_metrics).
struct CallMetrics {
    std::uint64_t calls = 0;
    std::uint64_t partial = 0;
    std::chrono::nanoseconds total{0};
    std::array<std::uint64_t, MCPR_METRICS_BUCKETS> buckets{};
};

/// The metrics of `method` ("resources/read", ...) with `outcome`
/// (MCPR_OK or a failure). Throws mcpr::Error.
inline CallMetrics metrics(const Resources &resources, std::string_view method, mcpr_status outcome = MCPR_OK) {
    mcpr_call_metrics c{};
    c.struct_size = sizeof c;
    detail::check([&](mcpr_error **e) {
        return mcpr_resources_get_metrics(resources.get(), to_c(method), static_cast<std::uint32_t>(outcome), &c, e);
    });
    CallMetrics m;
    m.calls = c.calls;
    m.partial = c.partial;
    m.total = std::chrono::nanoseconds(static_cast<std::int64_t>(c.total_ns));
    for (std::size_t i = 0; i < m.buckets.size(); i++) m.buckets[i] = c.buckets[i];
    return m;
}

/// The keyed hash events give `bytes` (a URI, a scope key). Throws mcpr::Error.
inline EventHash event_hash(const Resources &resources, std::string_view bytes) {
    EventHash h{};
    detail::check(
        [&](mcpr_error **e) { return mcpr_resources_event_hash(resources.get(), to_c(bytes), h.data(), e); });
    return h;
}

}  // namespace mcpr

#endif  // MCP_RESOURCES_OBSERVE_HPP
