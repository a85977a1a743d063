// The C side of the callbacks: one heap box per table, handed to the
// library as user_data (retained once), and @convention(c) trampolines that
// unbox it, call Swift, and turn every thrown error into a callback result
// (with its description as the private cause). The table's `release`
// drops the box exactly once, after the last call into the table returned.
// Their signatures are the header's: the views and out-pointers the library
// always passes are non-optional; user_data is optional (the table's own,
// which C may leave NULL; the wrapper never does), and a NULL one is a
// failed callback, never a trap.
import CMCPResources

final class PolicyBox: Sendable {
    let policy: any ResourcePolicy
    init(_ policy: any ResourcePolicy) { self.policy = policy }
}

final class BindingBox: Sendable {
    let read: BindingFunctions.Read
    let resolve: BindingFunctions.Resolve?
    let complete: BindingFunctions.Complete?
    let sizeHint: BindingFunctions.SizeHint?

    init(_ binding: any ResourceBinding) {
        if let f = binding as? BindingFunctions {
            read = f.readFn
            resolve = f.resolveFn
            complete = f.completeFn
            sizeHint = f.sizeHintFn
            return
        }
        read = { call, target, payload in try binding.read(call, target, payload) }
        if let r = binding as? any ResourceResolver {
            resolve = { call, match, plan in try r.resolve(call, match, plan) }
        } else {
            resolve = nil
        }
        if let c = binding as? any ResourceCompleter {
            complete = { call, request, values in try c.complete(call, request, values) }
        } else {
            complete = nil
        }
        if let h = binding as? any ResourceSizeHinting {
            sizeHint = { target, bytes, isBlob in h.sizeHint(target, payloadBytes: bytes, isBlob: isBlob) }
        } else {
            sizeHint = nil
        }
    }
}

/// The private cause for an error thrown out of a callback.
func causeText(_ error: any Error) -> String {
    if let e = error as? MCPRError {
        return e.cause.isEmpty ? "\(e.status.name): \(e.message)" : "\(e.status.name): \(e.message): \(e.cause)"
    }
    return String(describing: error)
}

/// Runs a callback body behind the barrier: nothing thrown leaves it.
/// `invalidContentOnRefusal`: a body reader's refused payload setter
/// (MCPRError invalidContent) makes the item invalid_content.
@inline(__always)
func guarded(_ call: UnsafePointer<mcpr_call>, invalidContentOnRefusal: Bool = false,
             _ body: () throws -> mcpr_cb_result) -> mcpr_cb_result
{
    do {
        return try body()
    } catch let f as CallbackFailure {
        switch f {
        case .unavailable:
            return MCPR_CB_UNAVAILABLE
        case .failed(let cause):
            withStr(cause) { mcpr_call_set_cause(call, $0) }
            return MCPR_CB_FAILED
        case .invalidContent(let cause):
            withStr(cause) { mcpr_call_set_cause(call, $0) }
            return MCPR_CB_INVALID_CONTENT
        case .inputRequired(let input):
            return askInput(call, input)
        }
    } catch {
        withStr(causeText(error)) { mcpr_call_set_cause(call, $0) }
        if invalidContentOnRefusal, let e = error as? MCPRError, e.status == .invalidContent {
            return MCPR_CB_INVALID_CONTENT
        }
        return MCPR_CB_FAILED
    }
}

@inline(__always)
func access(_ a: Access) -> mcpr_cb_result { a == .allow ? MCPR_CB_OK : MCPR_CB_UNAVAILABLE }

func policyDiscover(_ ud: UnsafeMutableRawPointer?, _ call: UnsafePointer<mcpr_call>,
                    _ def: UnsafePointer<mcpr_definition>) -> mcpr_cb_result
{
    guard let ud else { return MCPR_CB_FAILED }
    let box = Unmanaged<PolicyBox>.fromOpaque(ud).takeUnretainedValue()
    return guarded(call) { access(try box.policy.discover(Call(call), Definition(def))) }
}

func policyVisibility(_ ud: UnsafeMutableRawPointer?, _ call: UnsafePointer<mcpr_call>,
                      _ target: UnsafePointer<mcpr_target>, _ out: UnsafeMutablePointer<mcpr_visibility>)
    -> mcpr_cb_result
{
    guard let ud else { return MCPR_CB_FAILED }
    let box = Unmanaged<PolicyBox>.fromOpaque(ud).takeUnretainedValue()
    return guarded(call) {
        let v = try box.policy.visibility(Call(call), Target(target))
        out.pointee.visible = v.visible
        out.pointee.disclose_issue_uri = v.discloseIssueURI
        return MCPR_CB_OK
    }
}

func policyRead(_ ud: UnsafeMutableRawPointer?, _ call: UnsafePointer<mcpr_call>,
                _ target: UnsafePointer<mcpr_target>) -> mcpr_cb_result
{
    guard let ud else { return MCPR_CB_FAILED }
    let box = Unmanaged<PolicyBox>.fromOpaque(ud).takeUnretainedValue()
    return guarded(call) { access(try box.policy.read(Call(call), Target(target))) }
}

/// The plan-level policy entry (`mcpr_policy_callbacks.decide_plan`): one
/// call answers a whole step of a read (its first check, its recheck, the
/// root checks of an embedding or a subscription) with the policy's own
/// `discover`, `visibility` and `read`, asked in the order and with the
/// stops of the per-item callbacks, each answer read as its callback's
/// would be (a throw is that answer's failure; only the first check's
/// `read` may ask for input, elsewhere asking is a denial, as the library
/// reads it). The first failing answer's cause is the call's cause.
func policyDecidePlan(_ ud: UnsafeMutableRawPointer?, _ call: UnsafePointer<mcpr_call>,
                      _ q: UnsafePointer<mcpr_plan_questions>, _ d: UnsafeMutablePointer<mcpr_plan_decision>)
    -> mcpr_cb_result
{
    guard let ud else { return MCPR_CB_FAILED }
    let box = Unmanaged<PolicyBox>.fromOpaque(ud).takeUnretainedValue()
    let questions = q.pointee
    let n = questions.items_len
    guard n == d.pointee.items_len, n == 0 || (questions.items != nil && d.pointee.items != nil) else {
        return MCPR_CB_FAILED
    }
    var decider = PlanDecider(call: call, firstCheck: mcpr_call_phase(call) == MCPR_PHASE_FIRST_CHECK)
    decider.decide(box.policy, questions, d)
    if let cause = decider.cause {
        withStr(cause) { mcpr_call_set_cause(call, $0) }
    }
    return MCPR_CB_OK
}

/// One plan decision's state (see `policyDecidePlan`).
struct PlanDecider {
    let call: UnsafePointer<mcpr_call>
    let firstCheck: Bool
    var cause: String?

    mutating func decide(_ policy: any ResourcePolicy, _ q: mcpr_plan_questions,
                         _ d: UnsafeMutablePointer<mcpr_plan_decision>)
    {
        let c = Call(call)
        if let def = q.definition {
            let r = answer(mayAsk: false) { access(try policy.discover(c, Definition(def))) }
            d.pointee.discover = r
            if r != MCPR_CB_OK { return }
        }
        if let t = q.requested {
            var out = d.pointee.requested
            let more = target(policy, t, &out, requested: true)
            d.pointee.requested = out
            if !more { return }
        }
        guard q.items_len > 0, let items = q.items, let outs = d.pointee.items else { return }
        for i in 0..<q.items_len {
            guard let t = items[i] else {
                outs[i].visibility_result = MCPR_CB_FAILED
                return
            }
            if !target(policy, t, &outs[i], requested: false) { return }
        }
    }

    /// One target's visibility and, when visible, its read permission;
    /// false where the per-item form stops asking.
    mutating func target(_ policy: any ResourcePolicy, _ t: UnsafePointer<mcpr_target>,
                         _ out: inout mcpr_target_decision, requested: Bool) -> Bool
    {
        let c = Call(call)
        var v = Visibility.hidden
        out.visibility_result = answer(mayAsk: false) {
            v = try policy.visibility(c, Target(t))
            return MCPR_CB_OK
        }
        if out.visibility_result != MCPR_CB_OK { return false }
        out.visibility.visible = v.visible
        out.visibility.disclose_issue_uri = v.discloseIssueURI
        if !v.visible { return !requested }
        out.read_result = answer(mayAsk: true) { access(try policy.read(c, Target(t))) }
        switch out.read_result {
        case MCPR_CB_OK: return true
        case MCPR_CB_UNAVAILABLE: return !requested
        case MCPR_CB_INPUT_REQUIRED: return !requested && !firstCheck
        default: return false
        }
    }

    /// One answer, read as `guarded` reads a callback's (the first failure's
    /// cause kept for the call).
    mutating func answer(mayAsk: Bool, _ body: () throws -> mcpr_cb_result) -> mcpr_cb_result {
        do {
            return try body()
        } catch let f as CallbackFailure {
            switch f {
            case .unavailable:
                return MCPR_CB_UNAVAILABLE
            case .failed(let c), .invalidContent(let c):
                return fail(c)
            case .inputRequired(let input):
                guard mayAsk, firstCheck else { return MCPR_CB_UNAVAILABLE }
                return askInput(call, input)
            }
        } catch {
            return fail(causeText(error))
        }
    }

    mutating func fail(_ c: String) -> mcpr_cb_result {
        if cause == nil { cause = c }
        return MCPR_CB_FAILED
    }
}

func policyRelease(_ ud: UnsafeMutableRawPointer?) {
    guard let ud else { return }
    Unmanaged<PolicyBox>.fromOpaque(ud).release()
}

func bindingResolve(_ ud: UnsafeMutableRawPointer?, _ call: UnsafePointer<mcpr_call>,
                    _ match: UnsafePointer<mcpr_match>, _ plan: UnsafeMutablePointer<mcpr_plan_builder>)
    -> mcpr_cb_result
{
    guard let ud else { return MCPR_CB_FAILED }
    let box = Unmanaged<BindingBox>.fromOpaque(ud).takeUnretainedValue()
    guard let resolve = box.resolve else { return MCPR_CB_FAILED }
    return guarded(call) {
        try resolve(Call(call), Match(match), PlanBuilder(plan))
        return MCPR_CB_OK
    }
}

func bindingRead(_ ud: UnsafeMutableRawPointer?, _ call: UnsafePointer<mcpr_call>,
                 _ target: UnsafePointer<mcpr_target>, _ payload: UnsafeMutablePointer<mcpr_payload_builder>)
    -> mcpr_cb_result
{
    guard let ud else { return MCPR_CB_FAILED }
    let box = Unmanaged<BindingBox>.fromOpaque(ud).takeUnretainedValue()
    return guarded(call, invalidContentOnRefusal: true) {
        try box.read(Call(call), Target(target), PayloadBuilder(payload))
        return MCPR_CB_OK
    }
}

func bindingComplete(_ ud: UnsafeMutableRawPointer?, _ call: UnsafePointer<mcpr_call>,
                     _ request: UnsafePointer<mcpr_completion_request>,
                     _ out: UnsafeMutablePointer<mcpr_completion_builder>) -> mcpr_cb_result
{
    guard let ud else { return MCPR_CB_FAILED }
    let box = Unmanaged<BindingBox>.fromOpaque(ud).takeUnretainedValue()
    guard let complete = box.complete else { return MCPR_CB_FAILED }
    return guarded(call) {
        try complete(Call(call), CompletionRequest(request), CompletionBuilder(out))
        return MCPR_CB_OK
    }
}

func bindingSizeHint(_ ud: UnsafeMutableRawPointer?, _ target: UnsafePointer<mcpr_target>, _ payloadBytes: UInt64,
                     _ isBlob: Bool, _ estimate: UnsafeMutablePointer<UInt64>) -> mcpr_cb_result
{
    guard let ud else { return MCPR_CB_FAILED }
    let box = Unmanaged<BindingBox>.fromOpaque(ud).takeUnretainedValue()
    guard let hint = box.sizeHint?(Target(target), payloadBytes, isBlob) else { return MCPR_CB_FAILED }
    estimate.pointee = hint
    return MCPR_CB_OK
}

func bindingRelease(_ ud: UnsafeMutableRawPointer?) {
    guard let ud else { return }
    Unmanaged<BindingBox>.fromOpaque(ud).release()
}
