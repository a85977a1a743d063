// Statuses and errors: `Status` (mcpr_status as an open set of values),
// `MCPRError` (a failed call: status, safe message, private cause, JSON-RPC
// code and error object) and `CallbackFailure` (what a callback throws to
// answer other than OK).
import CMCPResources

/// The status of a library call (`mcpr_status`). A struct rather than an
/// enum: later library versions may add statuses, and an unknown one is a
/// value like any other (`name` is then "MCPR_UNKNOWN_STATUS").
public struct Status: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The C value.
    public let rawValue: UInt32
    /// A status by its C value.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    init(_ c: mcpr_status) { rawValue = c.rawValue }

    /// Success.
    public static let ok = Status(MCPR_OK)
    /// Malformed request: bad identifier, empty URI or scope key, ambiguous
    /// selection, bad capture, bad or foreign cursor (JSON-RPC -32602).
    public static let invalidRequest = Status(MCPR_INVALID_REQUEST)
    /// Not found or not permitted, indistinguishable on purpose.
    public static let unavailable = Status(MCPR_UNAVAILABLE)
    /// `resolve` failed or planned something invalid.
    public static let invalidPlan = Status(MCPR_INVALID_PLAN)
    /// A policy callback failed operationally (not a denial).
    public static let policy = Status(MCPR_POLICY)
    /// No item survived; the first visible issue was `read_failed`.
    public static let readFailed = Status(MCPR_READ_FAILED)
    /// No item survived; the first visible issue was `timeout`.
    public static let timeout = Status(MCPR_TIMEOUT)
    /// No item survived and the first issue was `invalid_content`, or a
    /// payload setter refused its input.
    public static let invalidContent = Status(MCPR_INVALID_CONTENT)
    /// No item survived; the first visible issue was `budget_exceeded`.
    public static let budgetExceeded = Status(MCPR_BUDGET_EXCEEDED)
    /// The caller cancelled through its `CancelToken` (MCP sends no
    /// response to a request the client cancelled: drop the error).
    public static let canceled = Status(MCPR_CANCELED)
    /// The whole-call deadline passed.
    public static let deadlineExceeded = Status(MCPR_DEADLINE_EXCEEDED)
    /// The result cannot fit the configured sizes.
    public static let size = Status(MCPR_SIZE)
    /// A definition, limit, key, callback table or registration is invalid.
    public static let invalidConfiguration = Status(MCPR_INVALID_CONFIGURATION)
    /// A programming error (for example a negative timeout, a builder used
    /// after `build`).
    public static let invalidArgument = Status(MCPR_INVALID_ARGUMENT)
    /// A bug in the library, stopped before it reached the caller.
    public static let `internal` = Status(MCPR_INTERNAL)
    /// `Resources.request` got a method it does not serve: route it
    /// elsewhere (or answer JSON-RPC -32601).
    public static let methodNotHandled = Status(MCPR_METHOD_NOT_HANDLED)
    /// A read's callback asked for input the client cannot be asked for (a
    /// revision before 2026-07-28, or a capability it did not declare);
    /// `MCPRError.inputRequests` holds the requests.
    public static let inputRequired = Status(MCPR_INPUT_REQUIRED)

    /// The C enumerator's name ("MCPR_OK", ...; "MCPR_UNKNOWN_STATUS" for a
    /// value this library does not define), for logs.
    public var name: String {
        guard let p = mcpr_status_name(Int32(bitPattern: rawValue)) else { return "MCPR_UNKNOWN_STATUS" }
        return String(cString: p)
    }

    /// The name (see `name`).
    public var description: String { name }
}

/// JSON-RPC codes for the errors the wrapper raises itself.
let jsonrpcInternalError: Int32 = -32603
let jsonrpcMethodNotFound: Int32 = -32601

/// A failed library call. `message` (also `description`) is safe to send
/// to a client; `cause` is private (it may hold identifiers and the causes
/// callbacks gave): log it, never send it. `jsonrpcJSON` is the complete
/// JSON-RPC `error` object to send, shaped for the call's protocol
/// revision (not found carries `data.uri`); never empty: for the few errors
/// the wrapper raises itself and when the library could not make one, it is
/// the fixed object of `jsonrpcCode` (-32601 "Method not found", else -32603
/// "internal error"), so no host-side error reaches a client as code 0 or
/// with its own text.
public struct MCPRError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What the call returned (never `.ok`).
    public let status: Status
    /// The safe message: may be sent to a client.
    public let message: String
    /// The private cause: log it, never send it.
    public let cause: String
    /// The JSON-RPC error code to answer with.
    public let jsonrpcCode: Int32
    /// The complete JSON-RPC `error` object to send (never empty).
    public let jsonrpcJSON: String
    /// For `.inputRequired`: the InputRequests JSON the read would have
    /// sent (empty otherwise).
    public let inputRequests: String

    /// An error from its parts (the wrapper copies them out of an
    /// `mcpr_error`; hosts rarely need this). A code of 0 becomes -32603 and
    /// an empty `jsonrpcJSON` the fixed object of the code.
    public init(status: Status, message: String, cause: String = "", jsonrpcCode: Int32 = -32603,
                jsonrpcJSON: String = "", inputRequests: String = "")
    {
        let code = jsonrpcCode == 0 ? jsonrpcInternalError : jsonrpcCode
        self.status = status
        self.message = message
        self.cause = cause
        self.jsonrpcCode = code
        if !jsonrpcJSON.isEmpty {
            self.jsonrpcJSON = jsonrpcJSON
        } else if code == jsonrpcMethodNotFound {
            self.jsonrpcJSON = #"{"code":-32601,"message":"Method not found"}"#
        } else {
            self.jsonrpcJSON = #"{"code":-32603,"message":"internal error"}"#
        }
        self.inputRequests = inputRequests
    }

    /// Copies an `mcpr_error` (and frees it); a NULL one gives the status's
    /// name as message.
    init(status s: mcpr_status, taking err: OpaquePointer?) {
        defer { mcpr_error_free(err) }
        guard let err else {
            let st = Status(s)
            self.init(status: st, message: st.name,
                      jsonrpcCode: st == .methodNotHandled ? jsonrpcMethodNotFound : jsonrpcInternalError)
            return
        }
        self.init(status: Status(mcpr_error_status(err)), message: String(mcpr_error_message(err)),
                  cause: String(mcpr_error_cause(err)), jsonrpcCode: mcpr_error_jsonrpc_code(err),
                  jsonrpcJSON: String(mcpr_error_jsonrpc_json(err)),
                  inputRequests: String(mcpr_error_input_requests(err)))
    }

    /// An error the wrapper raises itself (no JSON-RPC object).
    static func argument(_ message: String) -> MCPRError {
        MCPRError(status: .invalidArgument, message: message)
    }

    /// The safe message only.
    public var description: String { message }
}

/// What a callback throws to answer other than OK. Any other error a
/// callback throws fails it (`MCPR_CB_FAILED`), its description becoming
/// the call's private cause.
public enum CallbackFailure: Error, Sendable, Equatable {
    /// `MCPR_CB_UNAVAILABLE`: a typed denial or "not found" (policy
    /// `discover`/`read` answer `Access.deny` the same way; from a body
    /// reader the item becomes unavailable; from `complete`, the template
    /// answers like not found).
    case unavailable
    /// `MCPR_CB_FAILED` with this private cause.
    case failed(String)
    /// `MCPR_CB_INVALID_CONTENT` with this private cause: from a body
    /// reader the item becomes `invalid_content`; elsewhere it fails like
    /// `failed`.
    case invalidContent(String)
    /// `MCPR_CB_INPUT_REQUIRED`, from a policy `read` in the first check or
    /// a body reader: the read needs this input from the client first
    /// (elsewhere it counts as `unavailable`); a refused request fails the
    /// callback.
    case inputRequired(InputRequired)
}

/// Calls `body(&err)`; throws `MCPRError` unless it returns `MCPR_OK`.
@inline(__always)
func check(_ body: (UnsafeMutablePointer<OpaquePointer?>) -> mcpr_status) throws {
    var err: OpaquePointer? = nil
    let s = body(&err)
    if s != MCPR_OK { throw MCPRError(status: s, taking: err) }
}

/// The version of the library linked at run time (`mcpr_version`, for
/// example "0.1.0"). Before 1.0 a different minor version may change the ABI.
public var libraryVersion: String {
    guard let v = mcpr_version() else { return "" }
    return String(cString: v)
}
