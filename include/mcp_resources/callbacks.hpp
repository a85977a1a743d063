// mcp_resources/callbacks.hpp: what callbacks see (views, the plan, payload and
// completion builders) and the callback tables with their trampolines.
// Part of the C++ wrapper; include <mcp_resources.hpp>, which includes
// every part in order (each part also includes the parts it needs).
#ifndef MCP_RESOURCES_CALLBACKS_HPP
#define MCP_RESOURCES_CALLBACKS_HPP

#include "base.hpp"

namespace mcpr {

// ------------------------------------------------------------------ callback views

/// What a callback returns (MCPR_CB_OK / _UNAVAILABLE / _FAILED). To fail
/// with a cause, throw (the what() becomes the private cause) or call
/// Call::set_cause and return Result::failed.
/// Result::invalid_content (MCPR_CB_INVALID_CONTENT) from a body reader
/// makes the item an `invalid_content` issue; elsewhere it fails like
/// Result::failed.
/// Result::input_required (MCPR_CB_INPUT_REQUIRED), from the policy read
/// in MCPR_PHASE_FIRST_CHECK or a body reader after Call::add_input_request:
/// the read needs input from the client first (BEHAVIOUR §18); elsewhere it
/// counts as Result::unavailable.
enum class Result : mcpr_cb_result {
    ok = MCPR_CB_OK,
    unavailable = MCPR_CB_UNAVAILABLE,
    failed = MCPR_CB_FAILED,
    invalid_content = MCPR_CB_INVALID_CONTENT,
    input_required = MCPR_CB_INPUT_REQUIRED
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
    /// The request's `traceparent` as sent (W3C Trace Context); empty when
    /// it had none. Borrowed until the callback returns.
    std::string_view traceparent() const noexcept { return to_view(mcpr_call_traceparent(c_)); }
    /// The request's `tracestate` as sent; empty when absent.
    std::string_view tracestate() const noexcept { return to_view(mcpr_call_tracestate(c_)); }
    /// The request's `baggage` as sent (W3C Baggage); empty when absent.
    std::string_view baggage() const noexcept { return to_view(mcpr_call_baggage(c_)); }

    /// Input-required reads (BEHAVIOUR §18): adds one input request (an
    /// elicitation/create, sampling/createMessage or roots/list request
    /// object as JSON) under `key`, before returning Result::input_required.
    /// Throws mcpr::Error (MCPR_INVALID_CONTENT) for a bad key or request;
    /// the callback's input is then spoiled.
    void add_input_request(std::string_view key, std::string_view request_json) const {
        detail::check([&](mcpr_error **e) { return mcpr_input_add_request(c_, to_c(key), to_c(request_json), e); });
    }
    /// Sets up to 1 KiB of the callback's own bytes, sealed into the
    /// requestState and given back by input_state() on the retry. Throws
    /// mcpr::Error.
    void set_input_state(std::string_view bytes) const {
        detail::check([&](mcpr_error **e) {
            return mcpr_input_set_state(c_, reinterpret_cast<const std::uint8_t *>(bytes.data()), bytes.size(), e);
        });
    }
    /// Whether the read is the verified retry of an input-required read.
    bool is_input_retry() const noexcept { return mcpr_input_is_retry(c_); }
    /// The client's response under `key` (JSON; empty when none).
    std::string_view input_response(std::string_view key) const noexcept {
        return to_view(mcpr_input_response(c_, to_c(key)));
    }
    /// The user's action in the elicitation response under `key`
    /// (MCPR_INPUT_ACCEPT, _DECLINE, _CANCEL; MCPR_INPUT_NO_ACTION when none).
    mcpr_input_action input_action(std::string_view key) const noexcept {
        return mcpr_input_response_action(c_, to_c(key));
    }
    /// One submitted form field of the elicitation response under `key`, as
    /// JSON (`true`, `"text"`, `3`); empty when not sent.
    std::string_view input_content(std::string_view key, std::string_view field) const noexcept {
        return to_view(mcpr_input_response_content(c_, to_c(key), to_c(field)));
    }
    /// The bytes set_input_state sealed, on the retry (empty otherwise).
    std::string_view input_state() const noexcept { return to_view(mcpr_input_state(c_)); }

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
    /// A text body the library does not copy (mcpr_payload_set_text_borrowed
    /// without a release): `text` must stay valid and unchanged for longer
    /// than any read of the registry (a string literal, static storage). It
    /// is escaped straight into the result: no copy, no allocation.
    void set_text_static(std::string_view mime_type, std::string_view text) {
        detail::check([&](mcpr_error **e) {
            return mcpr_payload_set_text_borrowed(o_, to_c(mime_type), to_c(text), nullptr, nullptr, e);
        });
    }
    /// A text body the library does not copy, kept alive by `owner` (a
    /// reference the library holds until it no longer reads `text`, then
    /// drops on any thread): `text` must lie in what `owner` keeps alive and
    /// stay unchanged meanwhile. One allocation for the held reference.
    template <class T>
    void set_text_borrowed(std::string_view mime_type, std::string_view text, std::shared_ptr<T> owner) {
        auto *held = new std::shared_ptr<const void>(std::move(owner));
        // The library runs the release exactly once, also when it refuses.
        detail::check([&](mcpr_error **e) {
            return mcpr_payload_set_text_borrowed(o_, to_c(mime_type), to_c(text), &PayloadBuilder::drop_owner,
                                                  held, e);
        });
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
    static void drop_owner(void *held) noexcept { delete static_cast<std::shared_ptr<const void> *>(held); }
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
    /// does not spoil the others, so the callback goes on. Throws
    /// mcpr::Error only for misuse (a builder used after its callback
    /// returned is undefined behaviour).
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

/// What one Policy::decide_plan call is asked (borrowed mcpr_plan_questions),
/// in the order the per-item members would be: the definition's discovery
/// (when asked), then the requested target's visibility and (when visible)
/// read permission (when asked), then every item's, in plan order. A
/// single-item plan whose item is the requested target lists it both as
/// requested() and as item(0). The views it gives are valid only until
/// decide_plan returns.
class PlanQuestions {
public:
    explicit PlanQuestions(const mcpr_plan_questions *q) noexcept : q_(q) {}
    /// The definition whose discovery is asked; std::nullopt = not asked.
    std::optional<Definition> definition() const noexcept {
        if (!q_->definition) return std::nullopt;
        return Definition(q_->definition);
    }
    /// The requested target; std::nullopt = not asked.
    std::optional<Target> requested() const noexcept {
        if (!q_->requested) return std::nullopt;
        return Target(q_->requested);
    }
    /// How many items are asked about (PlanDecision::item_count too).
    std::size_t item_count() const noexcept { return q_->items ? q_->items_len : 0; }
    /// The i-th item. Throws std::out_of_range for i >= item_count().
    Target item(std::size_t i) const {
        if (i >= item_count()) throw std::out_of_range("mcpr::PlanQuestions::item: no such item");
        return Target(q_->items[i]);
    }
    const mcpr_plan_questions *get() const noexcept { return q_; }  ///< the C view

private:
    const mcpr_plan_questions *q_;
};

/// One target's answers in a plan decision (borrowed mcpr_target_decision):
/// what the per-item visibility and read members would answer. Unwritten,
/// each answer is a failure (Result::failed): an answer the library needs
/// and the decision left out fails the call with MCPR_POLICY.
class TargetDecision {
public:
    explicit TargetDecision(mcpr_target_decision *d) noexcept : d_(d) {}
    /// What visibility would return and fill: `v.visible` unset with
    /// Result::ok is a policy failure ("without deciding"), as for the
    /// visibility member.
    void set_visibility(Result r, const Visibility &v) noexcept {
        d_->visibility_result = static_cast<mcpr_cb_result>(r);
        if (v.visible.has_value()) d_->visibility.visible = *v.visible;
        d_->visibility.disclose_issue_uri = v.disclose_issue_uri;
    }
    /// Shorthand: visibility decided (Result::ok) as `visible`.
    void set_visible(bool visible, bool disclose_issue_uri = false) noexcept {
        Visibility v;
        v.visible = visible;
        v.disclose_issue_uri = disclose_issue_uri;
        set_visibility(Result::ok, v);
    }
    /// What read would return (used only when the target is visible):
    /// Result::ok allows, Result::unavailable denies, Result::input_required
    /// (after Call::add_input_request, first check only) asks for input.
    void set_read(Result r) noexcept { d_->read_result = static_cast<mcpr_cb_result>(r); }
    mcpr_target_decision *get() const noexcept { return d_; }  ///< the C decision

private:
    mcpr_target_decision *d_;
};

/// Where Policy::decide_plan writes its answers (borrowed
/// mcpr_plan_decision, the library's storage): valid only until decide_plan
/// returns. Every answer starts as a failure; write the ones asked about.
class PlanDecision {
public:
    /// `d` and the `items_len` item decisions it points at, as the library
    /// gave them.
    explicit PlanDecision(mcpr_plan_decision *d) noexcept
        : d_(d), items_(d->items), len_(d->items ? d->items_len : 0) {}
    /// What discover would return for PlanQuestions::definition().
    void set_discover(Result r) noexcept { d_->discover = static_cast<mcpr_cb_result>(r); }
    /// The requested target's answers (ignored when it is not asked).
    TargetDecision requested() noexcept { return TargetDecision(&d_->requested); }
    /// How many item decisions there are (PlanQuestions::item_count()).
    std::size_t item_count() const noexcept { return len_; }
    /// The i-th item's answers. Throws std::out_of_range for
    /// i >= item_count().
    TargetDecision item(std::size_t i) {
        if (i >= len_) throw std::out_of_range("mcpr::PlanDecision::item: no such item");
        return TargetDecision(&items_[i]);
    }
    mcpr_plan_decision *get() const noexcept { return d_; }  ///< the C decision

private:
    mcpr_plan_decision *d_;
    mcpr_target_decision *items_;
    std::size_t len_;
};

/// The access policy. Every member may run concurrently on any thread. An
/// empty member fails closed: discover and read deny (Result::unavailable),
/// visibility hides. Policy::allow_all() allows everything (tests, demos).
///
/// `decide_plan` is optional (mcpr_policy_callbacks.decide_plan, set only
/// when the member is non-empty; docs/BEHAVIOUR.md §5): one call answers a
/// whole step of a read (its first check, with discovery when the binding
/// has no resolve of its own; its recheck; the root checks of an embedding
/// or a subscription; Call::phase says which) instead of the per-item
/// members, which still answer listings, completion and list changes.
/// It is given the call, the questions and the decision to fill (borrowed:
/// valid only until it returns; keep no pointer, view or string_view of
/// them). Each answer means what the per-item member's result would, and
/// the library reads them with the same rules in the same order, stopping
/// where the per-item form stops, so both forms give the same results: an
/// answer it needs and the decision left out fails the call with
/// MCPR_POLICY, as does a return value other than Result::ok (with
/// Call::set_cause as its private cause) and a throw (caught: MCPR_CB_FAILED,
/// its what() the private cause; no exception crosses the C ABI).
struct Policy {
    std::function<Result(const Call &, const Definition &)> discover;
    std::function<Result(const Call &, const Target &, Visibility &)> visibility;
    std::function<Result(const Call &, const Target &)> read;
    std::function<Result(const Call &, const PlanQuestions &, PlanDecision &)> decide_plan;

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
inline mcpr_cb_result policy_decide_plan(void *ud, const mcpr_call *call, const mcpr_plan_questions *q,
                                         mcpr_plan_decision *d) {
    return guard(call, [&] {
        auto &p = *static_cast<Policy *>(ud);
        if (!q || !d || q->items_len != d->items_len || (q->items_len && (!q->items || !d->items)))
            return Result::failed;
        PlanQuestions questions(q);
        PlanDecision decision(d);
        return p.decide_plan ? p.decide_plan(Call(call), questions, decision) : Result::failed;
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

}  // namespace mcpr

#endif  // MCP_RESOURCES_CALLBACKS_HPP
