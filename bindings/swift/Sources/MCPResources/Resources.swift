// The registry: reads, listings, the one-call request and completion.
import CMCPResources

/// A built registry (`mcpr_resources`): immutable, Sendable, one library
/// reference per object (freed when the last Swift reference goes). Every
/// call holds its own library reference until it returns, and callback
/// state lives until the last callback returned, so dropping a `Resources`
/// while other threads still use it (a configuration reload that swaps the
/// current registry under a lock) is safe.
///
/// The calls here are synchronous: they block the calling thread until
/// the result is ready (at most until the deadline when the options give
/// an executor). The `async` forms take the executor as an argument
/// (`read(_:on:options:) async`, Async.swift) and hold no thread while in
/// flight.
public final class Resources: @unchecked Sendable {
    let raw: OpaquePointer
    init(_ raw: OpaquePointer) { self.raw = raw }
    deinit { mcpr_resources_free(raw) }

    /// `resources/read` of `uri` (compared byte for byte, never
    /// normalised). A partial result is a success (`isPartial`); a failure
    /// throws `MCPRError`, whose `jsonrpcJSON` is the error object to send.
    public func read(_ uri: String, options: ReadOptions = ReadOptions()) throws -> ReadResult {
        var out: OpaquePointer? = nil
        try options.withC { o in
            try withStr(uri) { u in try check { mcpr_read(raw, u, o, &out, $0) } }
        }
        return try result(out, ReadResult.init)
    }

    /// One page of `resources/list`.
    public func list(_ options: ListOptions) throws -> ListPage {
        var out: OpaquePointer? = nil
        try options.withC { o in try check { mcpr_list(raw, o, &out, $0) } }
        return try result(out, ListPage.init)
    }

    /// One page of `resources/templates/list`.
    public func listTemplates(_ options: ListOptions) throws -> ListPage {
        var out: OpaquePointer? = nil
        try options.withC { o in try check { mcpr_list_templates(raw, o, &out, $0) } }
        return try result(out, ListPage.init)
    }

    /// Serves one JSON-RPC request from its method and the raw text of its
    /// `params` (nil when it had none): `resources/read`, `resources/list`,
    /// `resources/templates/list`, and `completion/complete` for
    /// `ref/resource`. A client's mistake is an error `Response`; a method
    /// it does not serve throws `MCPRError` with status `methodNotHandled`
    /// (route it elsewhere), and so do host mistakes (no scope key for a
    /// listing, an unknown revision).
    public func request(method: String, params: String?, options: RequestOptions = RequestOptions()) throws
        -> Response
    {
        guard let params else { return try request(method: method, paramsBytes: nil, options: options) }
        var p = params
        return try p.withUTF8 { try request(method: method, paramsBytes: UnsafeRawBufferPointer($0), options: options) }
    }

    /// `request(method:params:options:)` with the params' raw bytes (for
    /// example a slice of the received message), not copied.
    public func request(method: String, paramsBytes: UnsafeRawBufferPointer?,
                        options: RequestOptions = RequestOptions()) throws -> Response
    {
        var out: OpaquePointer? = nil
        try options.withC { o in
            try withStr(method) { m in
                try withStr(bytes: paramsBytes ?? UnsafeRawBufferPointer(start: nil, count: 0)) { p in
                    try check { mcpr_request(raw, m, p, o, &out, $0) }
                }
            }
        }
        return try result(out, Response.init)
    }

    /// Serves one whole JSON-RPC message (`mcpr_message`): the message
    /// text in (a line of a stdio transport, an HTTP body), the `Reply` out,
    /// with the request's id byte for byte. The method and raw params go to
    /// `request`, so a message is answered exactly as `request` answers
    /// them; a message that is not JSON is answered `-32700`, JSON that is
    /// no JSON-RPC message `-32600` (a batch is refused whole); a
    /// notification is never answered; a method the library does not serve
    /// comes back with `handled` false. Throws `MCPRError` only for host
    /// mistakes (no scope key for a listing, an unknown revision).
    public func message(_ message: String, options: RequestOptions = RequestOptions()) throws -> Reply {
        var m = message
        return try m.withUTF8 { try self.message(bytes: UnsafeRawBufferPointer($0), options: options) }
    }

    /// `message(_:options:)` with the message's raw bytes, not copied.
    public func message(bytes: UnsafeRawBufferPointer, options: RequestOptions = RequestOptions()) throws -> Reply {
        var out: OpaquePointer? = nil
        try options.withC { o in
            try withStr(bytes: bytes) { m in try check { mcpr_message(raw, m, o, &out, $0) } }
        }
        return try result(out, Reply.init)
    }

    /// `completion/complete` (`ref/resource`): values for the variable
    /// `argument` of the registered template `template` (byte for byte),
    /// whose partial value is `value`, with the variables already chosen
    /// in `context`. A template that is not registered, or not discoverable
    /// to the caller, throws `unavailable` (the same error as not found).
    public func complete(template: String, argument: String, value: String,
                         context: [(name: String, value: String)] = [],
                         options: ReadOptions = ReadOptions()) throws -> CompletionResult
    {
        var out: OpaquePointer? = nil
        try options.withC { o in
            try withStrs(template, argument, value) { t, a, v in
                try withArguments(context) { args in
                    var p = mcpr_complete_params(template_uri: t, argument: mcpr_complete_argument(name: a, value: v),
                                                 context: args.baseAddress, context_len: args.count)
                    try check { mcpr_complete(raw, &p, o, &out, $0) }
                }
            }
        }
        return try result(out, CompletionResult.init)
    }

    /// Whether any binding completes its variables: declare the MCP
    /// `completions` capability only then.
    public var completes: Bool { mcpr_resources_completes(raw) }

    /// The registry's 32-byte content hash (SHA-256 of its definitions and
    /// configuration, `mcpr_resources_content_hash`): replicas compare it to
    /// know whether they accept each other's cursors.
    public var contentHash: [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        out.withUnsafeMutableBufferPointer { mcpr_resources_content_hash(raw, $0.baseAddress) }
        return out
    }

    private func result<T>(_ out: OpaquePointer?, _ make: (OpaquePointer) -> T) throws -> T {
        guard let out else { throw MCPRError(status: .internal, message: "the library returned no result") }
        return make(out)
    }
}

/// The C view of the completion context: (name, value) pairs pointing
/// into one buffer holding all their bytes, valid during `body`.
func withArguments<R>(_ context: [(name: String, value: String)],
                              _ body: (UnsafeBufferPointer<mcpr_complete_argument>) throws -> R) rethrows -> R
{
    if context.isEmpty { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
    var bytes: [UInt8] = [0]  // never empty, so its storage has an address
    var spans: [(Int, Int, Int, Int)] = []
    for (name, value) in context {
        let n = bytes.count
        bytes.append(contentsOf: name.utf8)
        let v = bytes.count
        bytes.append(contentsOf: value.utf8)
        spans.append((n, v - n, v, bytes.count - v))
    }
    return try bytes.withUnsafeBufferPointer { buf in
        let base = UnsafeRawPointer(buf.baseAddress)?.assumingMemoryBound(to: CChar.self)
        let args = spans.map { n, nl, v, vl in
            mcpr_complete_argument(name: mcpr_str(ptr: base.map { $0 + n }, len: nl),
                                   value: mcpr_str(ptr: base.map { $0 + v }, len: vl))
        }
        return try args.withUnsafeBufferPointer { try body($0) }
    }
}
