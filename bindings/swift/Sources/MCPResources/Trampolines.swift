// The C side of the callbacks: one heap box per table, handed to the
// library as user_data (retained once), and @convention(c) trampolines that
// unbox it, call Swift, and turn every thrown error into a callback result
// (with its description as the private cause). The table's `release`
// drops the box exactly once, after the last call into the table returned.
// The trampolines never trap on what the library passes: a NULL user_data
// or out-pointer is a failed callback.
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
func guarded(_ call: OpaquePointer?, invalidContentOnRefusal: Bool = false,
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

func policyDiscover(_ ud: UnsafeMutableRawPointer?, _ call: OpaquePointer?, _ def: OpaquePointer?) -> mcpr_cb_result {
    guard let ud else { return MCPR_CB_FAILED }
    let box = Unmanaged<PolicyBox>.fromOpaque(ud).takeUnretainedValue()
    return guarded(call) { access(try box.policy.discover(Call(call), Definition(def))) }
}

func policyVisibility(_ ud: UnsafeMutableRawPointer?, _ call: OpaquePointer?, _ target: OpaquePointer?,
                      _ out: UnsafeMutablePointer<mcpr_visibility>?) -> mcpr_cb_result
{
    guard let ud, let out else { return MCPR_CB_FAILED }
    let box = Unmanaged<PolicyBox>.fromOpaque(ud).takeUnretainedValue()
    return guarded(call) {
        let v = try box.policy.visibility(Call(call), Target(target))
        out.pointee.visible = v.visible
        out.pointee.disclose_issue_uri = v.discloseIssueURI
        return MCPR_CB_OK
    }
}

func policyRead(_ ud: UnsafeMutableRawPointer?, _ call: OpaquePointer?, _ target: OpaquePointer?) -> mcpr_cb_result {
    guard let ud else { return MCPR_CB_FAILED }
    let box = Unmanaged<PolicyBox>.fromOpaque(ud).takeUnretainedValue()
    return guarded(call) { access(try box.policy.read(Call(call), Target(target))) }
}

func policyRelease(_ ud: UnsafeMutableRawPointer?) {
    guard let ud else { return }
    Unmanaged<PolicyBox>.fromOpaque(ud).release()
}

func bindingResolve(_ ud: UnsafeMutableRawPointer?, _ call: OpaquePointer?, _ match: OpaquePointer?,
                    _ plan: OpaquePointer?) -> mcpr_cb_result
{
    guard let ud else { return MCPR_CB_FAILED }
    let box = Unmanaged<BindingBox>.fromOpaque(ud).takeUnretainedValue()
    guard let resolve = box.resolve else { return MCPR_CB_FAILED }
    return guarded(call) {
        try resolve(Call(call), Match(match), PlanBuilder(plan))
        return MCPR_CB_OK
    }
}

func bindingRead(_ ud: UnsafeMutableRawPointer?, _ call: OpaquePointer?, _ target: OpaquePointer?,
                 _ payload: OpaquePointer?) -> mcpr_cb_result
{
    guard let ud else { return MCPR_CB_FAILED }
    let box = Unmanaged<BindingBox>.fromOpaque(ud).takeUnretainedValue()
    return guarded(call, invalidContentOnRefusal: true) {
        try box.read(Call(call), Target(target), PayloadBuilder(payload))
        return MCPR_CB_OK
    }
}

func bindingComplete(_ ud: UnsafeMutableRawPointer?, _ call: OpaquePointer?, _ request: OpaquePointer?,
                     _ out: OpaquePointer?) -> mcpr_cb_result
{
    guard let ud else { return MCPR_CB_FAILED }
    let box = Unmanaged<BindingBox>.fromOpaque(ud).takeUnretainedValue()
    guard let complete = box.complete else { return MCPR_CB_FAILED }
    return guarded(call) {
        try complete(Call(call), CompletionRequest(request), CompletionBuilder(out))
        return MCPR_CB_OK
    }
}

func bindingSizeHint(_ ud: UnsafeMutableRawPointer?, _ target: OpaquePointer?, _ payloadBytes: UInt64,
                     _ isBlob: Bool, _ estimate: UnsafeMutablePointer<UInt64>?) -> mcpr_cb_result
{
    guard let ud, let estimate else { return MCPR_CB_FAILED }
    let box = Unmanaged<BindingBox>.fromOpaque(ud).takeUnretainedValue()
    guard let hint = box.sizeHint?(Target(target), payloadBytes, isBlob) else { return MCPR_CB_FAILED }
    estimate.pointee = hint
    return MCPR_CB_OK
}

func bindingRelease(_ ud: UnsafeMutableRawPointer?) {
    guard let ud else { return }
    Unmanaged<BindingBox>.fromOpaque(ud).release()
}
