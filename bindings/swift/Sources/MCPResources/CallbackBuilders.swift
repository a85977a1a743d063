// What callbacks fill: the read plan (resolve), the payload (body read)
// and the completion values (complete). Borrowed like the views, valid
// until the callback returns, not Sendable. A refused setter throws
// MCPRError; thrown out of the callback it fails it (a refused payload
// setter, status invalidContent, makes the item `invalid_content`).
import CMCPResources

/// Cache hints for a binding or one item (`mcpr_cache_hints`).
public struct CacheHints: Sendable, Equatable {
    /// How long a result made of this content may be considered fresh
    /// (rounded down to the millisecond; zero = immediately stale).
    public var ttl: Duration
    /// Whether the content is the same whoever asks.
    public var callerIndependent: Bool

    /// Hints of `ttl` freshness, caller-independent or not.
    public init(ttl: Duration = .zero, callerIndependent: Bool = false) {
        self.ttl = ttl
        self.callerIndependent = callerIndependent
    }

    func c() throws -> mcpr_cache_hints {
        mcpr_cache_hints(struct_size: MemoryLayout<mcpr_cache_hints>.stride, ttl_ms: try ttlMilliseconds(ttl),
                         caller_independent: callerIndependent)
    }
}

/// The plan a `resolve` callback fills (`mcpr_plan_builder`): the
/// requested target and the items to read.
public struct PlanBuilder {
    let raw: OpaquePointer?
    init(_ raw: OpaquePointer?) { self.raw = raw }

    /// Sets the requested target (required once per plan).
    public func setRequested(uri: String, representation: String = "", authorization: String = "") throws {
        try withStrs(uri, representation, authorization) { u, r, a in
            try check { mcpr_plan_set_requested(raw, u, r, a, $0) }
        }
    }

    /// Adds an item to read.
    public func addItem(uri: String, representation: String = "", authorization: String = "") throws {
        try withStrs(uri, representation, authorization) { u, r, a in
            try check { mcpr_plan_add_item(raw, u, r, a, $0) }
        }
    }
}

/// The body a read callback fills (`mcpr_payload_builder`): exactly one of
/// `setText` and `setBlob`, optionally `setMeta` and `setCacheHints`.
public struct PayloadBuilder {
    let raw: OpaquePointer?
    init(_ raw: OpaquePointer?) { self.raw = raw }

    /// A text body (copied).
    public func setText(_ text: String, mimeType: String = "text/plain") throws {
        try withStrs(mimeType, text) { m, t in
            try check { mcpr_payload_set_text(raw, m, t, $0) }
        }
    }

    /// A binary body (copied; the library base64-encodes it).
    public func setBlob(_ bytes: UnsafeRawBufferPointer, mimeType: String) throws {
        try withStr(mimeType) { m in
            try check {
                mcpr_payload_set_blob(raw, m, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, $0)
            }
        }
    }

    /// A binary body from any byte sequence (copied).
    public func setBlob<Bytes: Sequence>(_ bytes: Bytes, mimeType: String) throws where Bytes.Element == UInt8 {
        let done: Void?? = try bytes.withContiguousStorageIfAvailable { buf in
            try setBlob(UnsafeRawBufferPointer(buf), mimeType: mimeType)
        }
        if done == nil {
            try Array(bytes).withUnsafeBytes { try setBlob($0, mimeType: mimeType) }
        }
    }

    /// The item's `_meta` object (JSON text).
    public func setMeta(_ json: String) throws {
        try withStr(json) { j in try check { mcpr_payload_set_meta(raw, j, $0) } }
    }

    /// This item's cache hints (they can only lower the binding's).
    public func setCacheHints(_ hints: CacheHints) throws {
        var c = try hints.c()
        try check { mcpr_payload_set_cache_hints(raw, &c, $0) }
    }
}

/// The values a `complete` callback offers (`mcpr_completion_builder`).
public struct CompletionBuilder {
    let raw: OpaquePointer?
    init(_ raw: OpaquePointer?) { self.raw = raw }

    /// Offers one value: what the client substitutes into `{var}`,
    /// RFC 6570-encoding it (`a b`, not `a%20b`). Returns false when the
    /// library dropped it: a value that is no valid completion value
    /// (empty, `/`, `..`, `%`, `?`, `#`, a control or bidi override, too
    /// long once encoded, ...; docs/BEHAVIOUR.md §13 rule 5) never reaches
    /// the client, and does not spoil the others.
    @discardableResult
    public func add(_ value: String) throws -> Bool {
        var err: OpaquePointer? = nil
        let s = withStr(value) { mcpr_completion_add_value(raw, $0, &err) }
        if s == MCPR_OK { return true }
        let e = MCPRError(status: s, taking: err)
        if e.status == .invalidContent { return false }
        throw e
    }

    /// The total number of matches, when known (sent as `total`).
    public func setTotal(_ total: UInt64) throws {
        try check { mcpr_completion_set_total(raw, total, $0) }
    }

    /// Says that more values exist than were offered.
    public func setHasMore(_ more: Bool) throws {
        try check { mcpr_completion_set_has_more(raw, more, $0) }
    }
}
