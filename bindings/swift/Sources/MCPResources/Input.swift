// Input-required reads (MCP 2026-07-28; the library's docs/BEHAVIOUR.md
// §18): what a policy `read` (in the first check) or a body reader throws
// to ask the client for input first (`CallbackFailure.inputRequired`), and
// what the callbacks of the client's retry read from their `Call`.
import CMCPResources

/// One input request: its key in the `InputRequiredResult` and the request
/// object as JSON (`elicitation/create`, `sampling/createMessage` or
/// `roots/list`, checked against the schema when the callback throws).
public struct InputRequest: Sendable, Equatable {
    /// 1 to 64 bytes of `A-Z a-z 0-9 _ . -`, unique within the read.
    public var key: String
    /// The request object as JSON.
    public var json: String

    /// A request under `key`.
    public init(key: String, json: String) {
        self.key = key
        self.json = json
    }
}

/// What a callback asks for: the requests (at most 16) and up to 1 KiB of
/// its own state, handed back on the retry (`Call.inputState`).
public struct InputRequired: Sendable, Equatable {
    /// The requests, in order.
    public var requests: [InputRequest]
    /// The callback's own bytes.
    public var state: [UInt8]

    /// Input required with these requests and state.
    public init(_ requests: [InputRequest], state: [UInt8] = []) {
        self.requests = requests
        self.state = state
    }
}

/// What the user did with an elicitation.
public enum InputAction: Sendable, Equatable {
    /// No elicitation response under that key.
    case none
    /// The user submitted the form or confirmed.
    case accept
    /// The user explicitly declined.
    case decline
    /// The user dismissed the request.
    case cancel
}

extension Call {
    /// Whether this read is the verified retry of an input-required read.
    public var isInputRetry: Bool { mcpr_input_is_retry(raw) }

    /// The client's response under `key` on the retry, as JSON (nil: none).
    public func inputResponse(_ key: String) -> String? {
        let s = withStr(key) { String(mcpr_input_response(raw, $0)) }
        return s.isEmpty ? nil : s
    }

    /// The user's action in the elicitation response under `key`.
    public func inputAction(_ key: String) -> InputAction {
        switch withStr(key, { mcpr_input_response_action(raw, $0) }) {
        case MCPR_INPUT_ACCEPT: return .accept
        case MCPR_INPUT_DECLINE: return .decline
        case MCPR_INPUT_CANCEL: return .cancel
        default: return .none
        }
    }

    /// One submitted form field of the elicitation response under `key`, as
    /// JSON (`true`, `"text"`, `3`; nil: not sent).
    public func inputContent(_ key: String, field: String) -> String? {
        let s = withStrs(key, field) { String(mcpr_input_response_content(raw, $0, $1)) }
        return s.isEmpty ? nil : s
    }

    /// The state the asking callback gave, on the retry (empty otherwise).
    public var inputState: [UInt8] {
        withBytes(mcpr_input_state(raw)) { Array($0) }
    }
}

/// Hands an `InputRequired` to the call: `MCPR_CB_INPUT_REQUIRED`, or a
/// failure whose cause names the refused request.
func askInput(_ call: OpaquePointer?, _ input: InputRequired) -> mcpr_cb_result {
    for r in input.requests {
        var err: OpaquePointer? = nil
        let s = withStrs(r.key, r.json) { mcpr_input_add_request(call, $0, $1, &err) }
        if s != MCPR_OK {
            let e = MCPRError(status: s, taking: err)
            withStr("input request \(r.key) refused: \(e.message)") { mcpr_call_set_cause(call, $0) }
            return MCPR_CB_FAILED
        }
    }
    var err: OpaquePointer? = nil
    let s = input.state.withUnsafeBufferPointer { mcpr_input_set_state(call, $0.baseAddress, $0.count, &err) }
    if s != MCPR_OK {
        let e = MCPRError(status: s, taking: err)
        withStr("input state refused: \(e.message)") { mcpr_call_set_cause(call, $0) }
        return MCPR_CB_FAILED
    }
    return MCPR_CB_INPUT_REQUIRED
}
