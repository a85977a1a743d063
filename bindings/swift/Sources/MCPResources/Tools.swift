// Resources in tool results: the embedding (`mcpr_embed`) and the resource
// tools (`mcpr_resource_tools_*`), through the same read pipeline and policy.
import CMCPResources

/// Which content blocks `Resources.embed` makes.
public enum EmbedForm: Sendable {
    /// Embedded `resource` blocks: the items a read of each URI gives.
    case resource
    /// One `resource_link` block per URI the caller may read, from its
    /// registered description; nothing is read.
    case link
}

/// Options of `Resources.embed` (`mcpr_embed_options`).
public struct EmbedOptions: Sendable {
    /// The whole embedding's deadline (see `ReadOptions.timeout`).
    public var timeout: Duration?
    /// Cancels the call from any thread.
    public var cancel: CancelToken?
    /// Runs every callback on its workers under the deadline.
    public var executor: CallbackExecutor?
    /// The negotiated protocol revision; empty = the newest.
    public var protocolRevision: String
    /// Read by callbacks as `Call.context`.
    public var context: (any Sendable)?
    /// Embedded resources or links.
    public var form: EmbedForm
    /// With `.resource`: an item that would be a `budget_exceeded` issue
    /// becomes a `resource_link` block when the caller may learn its URI,
    /// and a URI the embedding has no budget left for becomes a link.
    public var overBudgetLinks: Bool
    /// Members of the whole tool result's `_meta` (`toolResultJSON`; never
    /// of the blocks), charged once to the embedding's budget.
    public var resultMeta: ResultMeta?

    /// Options with the given fields, the others at their defaults.
    public init(form: EmbedForm = .resource, overBudgetLinks: Bool = false, timeout: Duration? = nil,
                cancel: CancelToken? = nil, executor: CallbackExecutor? = nil, protocolRevision: String = "",
                context: (any Sendable)? = nil, resultMeta: ResultMeta? = nil)
    {
        self.resultMeta = resultMeta
        self.form = form
        self.overBudgetLinks = overBudgetLinks
        self.timeout = timeout
        self.cancel = cancel
        self.executor = executor
        self.protocolRevision = protocolRevision
        self.context = context
    }

    func withC<R>(_ body: (UnsafePointer<mcpr_embed_options>) throws -> R) throws -> R {
        var c = mcpr_embed_options()
        c.struct_size = MemoryLayout<mcpr_embed_options>.stride
        c.timeout_ms = try timeoutMilliseconds(timeout)
        c.cancel = cancel?.raw
        c.executor = executor?.raw
        c.form = form == .link ? MCPR_EMBED_LINK : MCPR_EMBED_RESOURCE
        c.over_budget_links = overBudgetLinks
        c.result_meta = resultMeta?.raw
        return try withExtendedLifetime((cancel, executor, resultMeta)) {
            try RequestContexts.shared.with(context) { data in
                c.request_data = data
                return try withStr(protocolRevision) { rev in
                    c.protocol_revision = rev
                    return try body(&c)
                }
            }
        }
    }
}

/// What became of one URI of an embedding: for the host only (the client
/// sees only the blocks).
public struct EmbeddedURI: Sendable {
    /// `.ok` when the URI gave blocks, else why it gave none (`.unavailable`
    /// for not found and root denials, `.invalidRequest` for an invalid URI,
    /// `.budgetExceeded`, ...). Never tell the client.
    public let status: Status
    /// Blocks the URI gave (a partial read's warning and links included).
    public let blocks: Int
    /// Links among them.
    public let links: Int
    /// Whether its read was partial.
    public let isPartial: Bool
    /// The private cause when it gave nothing: log it, never send it.
    public let cause: String
}

/// The content blocks `Resources.embed` made (`mcpr_embedding`).
public final class Embedding: @unchecked Sendable {
    let raw: OpaquePointer
    init(_ raw: OpaquePointer) { self.raw = raw }
    deinit { mcpr_embedding_free(raw) }

    /// The blocks as one JSON array, in URI order.
    public var blocksJSON: String { String(mcpr_embedding_blocks_json(raw)) }
    /// How many blocks.
    public var blockCount: Int { mcpr_embedding_block_count(raw) }
    /// Each block's JSON object, in order.
    public var blocks: [String] { (0..<blockCount).map { String(mcpr_embedding_block(raw, $0)) } }
    /// A whole `CallToolResult` holding the blocks: send it as the `result`.
    public var toolResultJSON: String { String(mcpr_embedding_tool_result_json(raw)) }
    /// What became of each URI, in the order given.
    public var uris: [EmbeddedURI] {
        (0..<mcpr_embedding_uri_count(raw)).map { i in
            EmbeddedURI(status: Status(mcpr_embedding_uri_status(raw, i)),
                        blocks: mcpr_embedding_uri_block_count(raw, i),
                        links: mcpr_embedding_uri_link_count(raw, i),
                        isPartial: mcpr_embedding_uri_is_partial(raw, i),
                        cause: String(mcpr_embedding_uri_cause(raw, i)))
        }
    }
}

extension Resources {
    /// Embeds resources in a tool result: for each URI, through the read
    /// pipeline for the caller, the `resource` blocks a read gives (or one
    /// `resource_link` block with `.link`); nothing for a URI the caller may
    /// not read, whatever the reason. The URIs share the budgets of one
    /// read and one deadline. Throws `MCPRError` only when the whole
    /// embedding fails (cancellation, deadline, too many URIs, size).
    public func embed(_ uris: [String], options: EmbedOptions = EmbedOptions()) throws -> Embedding {
        var out: OpaquePointer? = nil
        try options.withC { o in
            try withStrArray(uris) { arr in
                try check { mcpr_embed(raw, arr.baseAddress, arr.count, o, &out, $0) }
            }
        }
        guard let out else { throw MCPRError(status: .internal, message: "the library returned no result") }
        return Embedding(out)
    }

    /// `tools/call` of the resource tools (`read_resource`,
    /// `list_resources`) from the raw params text: the `Response` to send
    /// (an execution error is a result with `isError`). Another tool throws
    /// `MCPRError` with status `methodNotHandled`: call your own.
    public func callResourceTool(params: String, options: RequestOptions = RequestOptions()) throws -> Response {
        var out: OpaquePointer? = nil
        try options.withC { o in
            try withStr(params) { p in try check { mcpr_resource_tools_call(raw, p, o, &out, $0) } }
        }
        guard let out else { throw MCPRError(status: .internal, message: "the library returned no result") }
        return Response(out)
    }

    /// The resource tools' `Tool` definitions (`list_resources`,
    /// `read_resource`) as one JSON array, for a host's `tools/list`.
    public static func resourceToolDefinitions(protocolRevision: String = "") throws -> String {
        var out = mcpr_str(ptr: nil, len: 0)
        try withStr(protocolRevision) { rev in try check { mcpr_resource_tools_definitions(rev, &out, $0) } }
        return String(out)
    }
}

/// The C view of a list of strings: `mcpr_str`s pointing into one buffer
/// holding all their bytes, valid during `body`.
private func withStrArray<R>(_ strings: [String], _ body: (UnsafeBufferPointer<mcpr_str>) throws -> R) rethrows
    -> R
{
    if strings.isEmpty { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
    var bytes: [UInt8] = [0]  // never empty, so its storage has an address
    var spans: [(Int, Int)] = []
    for s in strings {
        let at = bytes.count
        bytes.append(contentsOf: s.utf8)
        spans.append((at, bytes.count - at))
    }
    return try bytes.withUnsafeBufferPointer { buf in
        let base = UnsafeRawPointer(buf.baseAddress)?.assumingMemoryBound(to: CChar.self)
        let strs = spans.map { at, len in mcpr_str(ptr: base.map { $0 + at }, len: len) }
        return try strs.withUnsafeBufferPointer { try body($0) }
    }
}
