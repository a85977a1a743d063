// Per-call options. Plain Sendable values with defaults; the wrapper fills
// the C structs (their struct_size set to the size this module was
// compiled against, as the C INIT macros do) for the duration of a call.
import CMCPResources

/// Options of `Resources.read` and `Resources.complete`
/// (`mcpr_read_options`).
public struct ReadOptions: Sendable {
    /// The caller's deadline from the start of the call (rounded up to the
    /// millisecond); nil = only the registry's read timeout.
    public var timeout: Duration?
    /// Cancels the call from any thread.
    public var cancel: CancelToken?
    /// Runs every callback on its workers: the call then returns by its
    /// deadline whatever a callback does. nil = callbacks on the calling
    /// thread.
    public var executor: CallbackExecutor?
    /// The negotiated protocol revision ("2024-11-05", "2025-03-26",
    /// "2025-06-18", "2025-11-25", "2026-07-28"); empty = the newest.
    public var protocolRevision: String
    /// Any value the callbacks read as `Call.context` (the caller's
    /// identity, say).
    public var context: (any Sendable)?
    /// Input-required reads (read only): the caller's principal (the
    /// `requestState` is bound to it; required when a callback asks).
    public var scopeKey: String = ""
    /// The client's `ClientCapabilities` JSON (empty: nothing declared).
    public var clientCapabilities: String = ""
    /// The retry's `requestState`, exactly as the client sent it (empty: none).
    public var requestState: String = ""
    /// The retry's `inputResponses` JSON (empty: none).
    public var inputResponses: String = ""
    /// The request's whole params JSON (the state is bound to it).
    public var params: String = ""
    /// Members merged into the result's `_meta` after the library's own.
    public var resultMeta: ResultMeta?

    /// Options with the given fields, the others at their defaults.
    public init(timeout: Duration? = nil, cancel: CancelToken? = nil, executor: CallbackExecutor? = nil,
                protocolRevision: String = "", context: (any Sendable)? = nil, resultMeta: ResultMeta? = nil)
    {
        self.timeout = timeout
        self.cancel = cancel
        self.executor = executor
        self.protocolRevision = protocolRevision
        self.context = context
        self.resultMeta = resultMeta
    }

    /// Runs `body` with the C options (valid during `body` only).
    func withC<R>(_ body: (UnsafePointer<mcpr_read_options>) throws -> R) throws -> R {
        try RequestContexts.shared.with(context) { data in try withC(requestData: data, body) }
    }

    /// `withC` with `requestData` as the C `request_data` (an asynchronous
    /// call's context, registered until its done callback).
    func withC<R>(requestData: UnsafeMutableRawPointer?, _ body: (UnsafePointer<mcpr_read_options>) throws -> R) throws -> R {
        var c = mcpr_read_options()
        c.struct_size = MemoryLayout<mcpr_read_options>.stride
        c.timeout_ms = try timeoutMilliseconds(timeout)
        c.cancel = cancel?.raw
        c.executor = executor?.raw
        c.request_data = requestData
        c.result_meta = resultMeta?.raw
        return try withExtendedLifetime((cancel, executor, resultMeta)) {
            return try withStrs(protocolRevision, scopeKey, clientCapabilities) { rev, scope, caps in
                c.protocol_revision = rev
                c.scope_key = scope
                c.client_capabilities = caps
                return try withStrs(requestState, inputResponses, params) { state, responses, params in
                    c.request_state = state
                    c.input_responses = responses
                    c.params = params
                    return try body(&c)
                }
            }
        }
    }
}

/// Options of `Resources.list` and `Resources.listTemplates`
/// (`mcpr_list_options`).
public struct ListOptions: Sendable {
    /// The caller's authorization context (required, non-empty): cursors
    /// are bound to it.
    public var scopeKey: String
    /// The previous page's `nextCursor`; nil or empty = the first page.
    public var cursor: String?
    /// Page size (0 = the registry's default; clamped to its maximum).
    public var pageSize: UInt32
    /// The caller's deadline (see `ReadOptions.timeout`).
    public var timeout: Duration?
    /// Cancels the call from any thread.
    public var cancel: CancelToken?
    /// Runs `discover` on its workers under the deadline.
    public var executor: CallbackExecutor?
    /// The negotiated protocol revision; empty = the newest.
    public var protocolRevision: String
    /// Read by callbacks as `Call.context`.
    public var context: (any Sendable)?
    /// The page's `_meta` members.
    public var resultMeta: ResultMeta?

    /// Options for the caller `scopeKey`, the others at their defaults.
    public init(scopeKey: String, cursor: String? = nil, pageSize: UInt32 = 0, timeout: Duration? = nil,
                cancel: CancelToken? = nil, executor: CallbackExecutor? = nil, protocolRevision: String = "",
                context: (any Sendable)? = nil, resultMeta: ResultMeta? = nil)
    {
        self.resultMeta = resultMeta
        self.scopeKey = scopeKey
        self.cursor = cursor
        self.pageSize = pageSize
        self.timeout = timeout
        self.cancel = cancel
        self.executor = executor
        self.protocolRevision = protocolRevision
        self.context = context
    }

    func withC<R>(_ body: (UnsafePointer<mcpr_list_options>) throws -> R) throws -> R {
        try RequestContexts.shared.with(context) { data in try withC(requestData: data, body) }
    }

    /// `withC` with `requestData` as the C `request_data` (an asynchronous
    /// call's context, registered until its done callback).
    func withC<R>(requestData: UnsafeMutableRawPointer?, _ body: (UnsafePointer<mcpr_list_options>) throws -> R) throws -> R {
        var c = mcpr_list_options()
        c.struct_size = MemoryLayout<mcpr_list_options>.stride
        c.page_size = pageSize
        c.timeout_ms = try timeoutMilliseconds(timeout)
        c.cancel = cancel?.raw
        c.executor = executor?.raw
        c.request_data = requestData
        c.result_meta = resultMeta?.raw
        return try withExtendedLifetime((cancel, executor, resultMeta)) {
            return try withStrs(scopeKey, cursor ?? "", protocolRevision) { scope, cur, rev in
                c.scope_key = scope
                c.cursor = cur
                c.protocol_revision = rev
                return try body(&c)
            }
        }
    }
}

/// Options of `Resources.request` (`mcpr_request_options`).
public struct RequestOptions: Sendable {
    /// The revision negotiated with the client; a known revision in the
    /// request's `params._meta` wins. Empty = the newest.
    public var protocolRevision: String
    /// The caller's authorization context: required for the list methods.
    public var scopeKey: String
    /// Page size of the list methods (0 = default).
    public var pageSize: UInt32
    /// The caller's deadline (see `ReadOptions.timeout`).
    public var timeout: Duration?
    /// Cancels the call from any thread.
    public var cancel: CancelToken?
    /// Runs every callback on its workers under the deadline.
    public var executor: CallbackExecutor?
    /// Read by callbacks as `Call.context`.
    public var context: (any Sendable)?
    /// Members merged into the `_meta` of every result (never of an error
    /// object): put the server's `io.modelcontextprotocol/serverInfo` here.
    public var resultMeta: ResultMeta?
    /// Serve `tools/call` for the resource tools (`read_resource`,
    /// `list_resources`); any other tool stays `methodNotHandled`.
    public var resourceTools: Bool
    /// The client's `ClientCapabilities` JSON as known from `initialize`,
    /// for a read whose callback asks for input (the params' `_meta` wins).
    public var clientCapabilities: String = ""

    /// Options with the given fields, the others at their defaults.
    public init(protocolRevision: String = "", scopeKey: String = "", pageSize: UInt32 = 0,
                timeout: Duration? = nil, cancel: CancelToken? = nil, executor: CallbackExecutor? = nil,
                context: (any Sendable)? = nil, resultMeta: ResultMeta? = nil,
                resourceTools: Bool = false)
    {
        self.resultMeta = resultMeta
        self.protocolRevision = protocolRevision
        self.scopeKey = scopeKey
        self.pageSize = pageSize
        self.timeout = timeout
        self.cancel = cancel
        self.executor = executor
        self.context = context
        self.resourceTools = resourceTools
    }

    func withC<R>(_ body: (UnsafePointer<mcpr_request_options>) throws -> R) throws -> R {
        try RequestContexts.shared.with(context) { data in try withC(requestData: data, body) }
    }

    /// `withC` with `requestData` as the C `request_data` (an asynchronous
    /// call's context, registered until its done callback).
    func withC<R>(requestData: UnsafeMutableRawPointer?, _ body: (UnsafePointer<mcpr_request_options>) throws -> R) throws -> R {
        var c = mcpr_request_options()
        c.struct_size = MemoryLayout<mcpr_request_options>.stride
        c.page_size = pageSize
        c.resource_tools = resourceTools
        c.timeout_ms = try timeoutMilliseconds(timeout)
        c.cancel = cancel?.raw
        c.executor = executor?.raw
        c.request_data = requestData
        c.result_meta = resultMeta?.raw
        return try withExtendedLifetime((cancel, executor, resultMeta)) {
            return try withStrs(protocolRevision, scopeKey, clientCapabilities) { rev, scope, caps in
                c.protocol_revision = rev
                c.scope_key = scope
                c.client_capabilities = caps
                return try body(&c)
            }
        }
    }
}
