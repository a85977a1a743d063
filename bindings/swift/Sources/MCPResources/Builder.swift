// Building a registry: definitions with their bindings, the policy, limits,
// the cursor key, the clock and cache hints.
import CMCPResources

/// A configurable limit (`mcpr_limit`; docs/BEHAVIOUR.md §7; timeouts in
/// milliseconds).
public struct Limit: RawRepresentable, Hashable, Sendable {
    /// The C value (`MCPR_LIMIT_*`).
    public let rawValue: UInt32
    /// A limit by its C value (an unknown one is refused by `setLimit`).
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Longest URI, in bytes.
    public static let maxURIBytes = Limit(rawValue: MCPR_LIMIT_MAX_URI_BYTES)
    /// Most targets in one read plan.
    public static let maxPlanTargets = Limit(rawValue: MCPR_LIMIT_MAX_PLAN_TARGETS)
    /// Most items in one result.
    public static let maxItems = Limit(rawValue: MCPR_LIMIT_MAX_ITEMS)
    /// Largest payload of one item, in bytes.
    public static let maxItemBytes = Limit(rawValue: MCPR_LIMIT_MAX_ITEM_BYTES)
    /// Largest sum of the payloads of one read, in bytes.
    public static let maxPayloadBytes = Limit(rawValue: MCPR_LIMIT_MAX_PAYLOAD_BYTES)
    /// Largest encoded result, in bytes.
    public static let maxEncodedBytes = Limit(rawValue: MCPR_LIMIT_MAX_ENCODED_BYTES)
    /// Payload bytes held back for the diagnostic report.
    public static let reportPayloadBytes = Limit(rawValue: MCPR_LIMIT_REPORT_PAYLOAD_BYTES)
    /// Encoded bytes held back for the diagnostic report.
    public static let reportEncodedBytes = Limit(rawValue: MCPR_LIMIT_REPORT_ENCODED_BYTES)
    /// Most issues a report lists.
    public static let maxIssues = Limit(rawValue: MCPR_LIMIT_MAX_ISSUES)
    /// The deadline of a whole read, in milliseconds.
    public static let readTimeoutMs = Limit(rawValue: MCPR_LIMIT_READ_TIMEOUT_MS)
    /// The deadline of one body read, in milliseconds.
    public static let itemTimeoutMs = Limit(rawValue: MCPR_LIMIT_ITEM_TIMEOUT_MS)
    /// Page size when the caller asks for none.
    public static let defaultPageSize = Limit(rawValue: MCPR_LIMIT_DEFAULT_PAGE_SIZE)
    /// Largest page size.
    public static let maxPageSize = Limit(rawValue: MCPR_LIMIT_MAX_PAGE_SIZE)
    /// Largest encoded page, in bytes.
    public static let maxPageBytes = Limit(rawValue: MCPR_LIMIT_MAX_PAGE_BYTES)
}

/// Collects definitions, bindings, a policy and limits (`mcpr_builder`),
/// then builds a `Resources`. Not Sendable: meant for one thread. `build()`
/// consumes it, whether it succeeds or not; every later call throws
/// `invalidArgument`.
public final class ResourcesBuilder {
    private var raw: UnsafeMutablePointer<mcpr_builder>?

    /// Traps only when memory is exhausted.
    public init() {
        guard let b = mcpr_builder_new() else { fatalError("mcpr_builder_new: out of memory") }
        raw = b
    }

    deinit { mcpr_builder_free(raw) }

    func live() throws -> UnsafeMutablePointer<mcpr_builder> {
        guard let raw else { throw MCPRError.argument("the builder was already built") }
        return raw
    }

    /// Runs `body` with the live C builder (for the extensions in other
    /// files).
    func withRaw<R>(_ body: (UnsafeMutablePointer<mcpr_builder>) throws -> R) throws -> R {
        try body(try live())
    }

    /// Registers a definition (the JSON of an MCP `Resource`, with `uri`,
    /// or `ResourceTemplate`, with `uriTemplate`) served by `binding`.
    /// On success the library owns the binding until its `release`, after
    /// the registry's last call into it; a refused add drops it at once.
    @discardableResult
    public func add(_ definition: String, binding: some ResourceBinding, hints: CacheHints? = nil) throws -> Self {
        let b = try live()
        let box = BindingBox(binding)
        var cb = mcpr_binding_callbacks()
        mcpr_binding_callbacks_init(&cb)
        if box.resolve == nil {
            cb.resolve = mcpr_resolve_single
        } else {
            cb.resolve = bindingResolve
        }
        cb.read = bindingRead
        cb.release = bindingRelease
        if box.complete != nil { cb.complete = bindingComplete }
        if box.sizeHint != nil { cb.size_hint = bindingSizeHint }
        var h = try hints?.c()
        let ud = Unmanaged.passRetained(box)
        cb.user_data = ud.toOpaque()
        do {
            try withStr(definition) { d in
                try check { err in
                    if h != nil { return mcpr_builder_add_with_hints(b, d, &cb, &h!, err) }
                    return mcpr_builder_add(b, d, &cb, err)
                }
            }
        } catch {
            ud.release()  // the library runs `release` only for a successful add
            throw error
        }
        return self
    }

    /// `add` with the body reader as a closure (the matched URI alone, no
    /// completion).
    @discardableResult
    public func add(_ definition: String, hints: CacheHints? = nil,
                    read: @escaping BindingFunctions.Read) throws -> Self
    {
        try add(definition, binding: BindingFunctions(read: read), hints: hints)
    }

    /// Sets (or replaces) the policy; a replaced one is released at once.
    @discardableResult
    public func setPolicy(_ policy: some ResourcePolicy) throws -> Self {
        let b = try live()
        var cb = mcpr_policy_callbacks()
        mcpr_policy_callbacks_init(&cb)
        cb.discover = policyDiscover
        cb.visibility = policyVisibility
        cb.read = policyRead
        cb.release = policyRelease
        // A read's steps in one call each (the policy's own methods inside).
        cb.decide_plan = policyDecidePlan
        let ud = Unmanaged.passRetained(PolicyBox(policy))
        cb.user_data = ud.toOpaque()
        do {
            try check { mcpr_builder_set_policy(b, &cb, $0) }
        } catch {
            ud.release()
            throw error
        }
        return self
    }

    /// The library's built-in policy that lets every caller discover, see
    /// and read everything (no Swift callback runs for it).
    @discardableResult
    public func setAllowAllPolicy() throws -> Self {
        let b = try live()
        try check { mcpr_builder_set_policy_allow_all(b, $0) }
        return self
    }

    /// Sets one limit (0 = its default).
    @discardableResult
    public func setLimit(_ limit: Limit, _ value: Int64) throws -> Self {
        let b = try live()
        try check { mcpr_builder_set_limit(b, limit.rawValue, value, $0) }
        return self
    }

    /// The JSON-RPC error of a read that asks for input on a revision
    /// before 2026-07-28 (default -32603 "Input required: this protocol
    /// revision cannot carry the request for input"); a reserved code
    /// (-32099...-32020) or a bad message is `.invalidConfiguration`.
    @discardableResult
    public func setInputUnsupportedError(code: Int32, message: String) throws -> Self {
        let b = try live()
        try withStr(message) { m in try check { mcpr_builder_set_input_unsupported_error(b, code, m, $0) } }
        return self
    }

    /// The cursor key (at least 32 bytes of secret): replicas with the same
    /// definitions and key accept each other's cursors.
    @discardableResult
    public func setCursorKey(_ key: [UInt8]) throws -> Self {
        let b = try live()
        try key.withUnsafeBufferPointer { k in
            try check { mcpr_builder_set_cursor_key(b, k.baseAddress, k.count, $0) }
        }
        return self
    }

    /// The clock for cursor issue and expiry times (Unix milliseconds), a
    /// C function (a global function or a closure capturing nothing);
    /// `userData` is handed back and never released, so it must outlive
    /// the registry and every call on it. Without one, the system clock.
    @discardableResult
    public func setClock(_ nowUnixMs: @convention(c) (UnsafeMutableRawPointer?) -> UInt64,
                         userData: UnsafeMutableRawPointer? = nil) throws -> Self
    {
        let b = try live()
        try check { mcpr_builder_set_clock(b, nowUnixMs, userData, $0) }
        return self
    }

    /// Registry-wide cache hints: the TTL of list pages and of reads through
    /// bindings without their own, and whether the policy decides the same
    /// for every caller. Without them: `ttlMs` 0, `"private"`.
    @discardableResult
    public func setCacheHints(ttl: Duration, policyCallerIndependent: Bool) throws -> Self {
        let b = try live()
        let ms = try ttlMilliseconds(ttl)
        try check { mcpr_builder_set_cache_hints(b, ms, policyCallerIndependent, $0) }
        return self
    }

    /// Builds the registry; consumes the builder either way.
    public func build() throws -> Resources {
        let b = try live()
        raw = nil  // mcpr_builder_build frees it, built or not
        var out: UnsafeMutablePointer<mcpr_resources>? = nil
        try check { mcpr_builder_build(b, &out, $0) }
        guard let out else { throw MCPRError(status: .internal, message: "mcpr_builder_build gave no registry") }
        return Resources(out)
    }
}
