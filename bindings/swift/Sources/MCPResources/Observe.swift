// Observability (docs/BEHAVIOUR.md §19, docs/C-API.md "Observability"): an
// observer closure receiving one event per call and, when asked, per
// decision; call metrics without an observer; keyed event hashes.
import CMCPResources

/// What an observer asks for besides one call event per call
/// (`MCPR_OBSERVE_*`).
public struct ObserveOptions: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Decision events: every planned item's final decision, every
    /// definition a listing visits, a failed call's root decision.
    public static let decisions = ObserveOptions(rawValue: UInt32(MCPR_OBSERVE_DECISIONS))
    /// Per-kind callback counts and times in call events (private).
    public static let callbackTimings = ObserveOptions(rawValue: UInt32(MCPR_OBSERVE_CALLBACK_TIMINGS))
}

/// One event, copied out of the library's `mcpr_event` (the closure may
/// keep it). The `private*` members and every event with `isPrivate` are
/// for the host's own logs only: a log a client-facing operator reads uses
/// `publicJSON`, which is nil for a private event.
public struct ObservedEvent: Sendable {
    /// A call event (`false`: a decision event).
    public let isCall: Bool
    /// The method (`"resources/read"`, ..., `"tools/call"`, `"embed"`).
    public let method: String
    /// The protocol revision of the call.
    public let protocolRevision: String
    /// The call's number (its decision events carry the same).
    public let callID: UInt64
    /// The `context` of the call's options, when it is still registered
    /// (it is while the call runs).
    public let context: (any Sendable)?
    /// A call event's outcome (`ok`, or the failure's status).
    public let status: Status
    /// The JSON-RPC code sent, when the call failed.
    public let jsonrpcCode: Int32
    /// The failure's safe message, when the call failed.
    public let statusMessage: String
    /// From the call's start to its return.
    public let duration: Duration
    /// The executor queue wait, when the call ran on one.
    public let queueWait: Duration?
    /// Items and JSON bytes of a successful call's result.
    public let items: UInt64
    public let bytes: UInt64
    /// Whether the result is partial.
    public let partial: Bool
    /// The URI in plain, only where the disclosure rule allows ("" else).
    public let uri: String
    /// The keyed hash of the URI the event is about, when it has one.
    public let uriHash: [UInt8]?
    /// A decision's rule (`"admitted"`, `"hidden"`, ...; "" for a call).
    public let rule: String
    /// Whether the whole event is private.
    public let isPrivate: Bool
    /// The event as one JSON line without its private members (nil for a
    /// private event).
    public let publicJSON: String?
    /// The event as one JSON line with its private members.
    public let privateJSON: String
    /// Private: the failure's or decision's private cause ("" for none).
    public let privateCause: String

    init(_ e: UnsafePointer<mcpr_event>) {
        let c = e.pointee
        isCall = c.kind == UInt32(MCPR_EVENT_CALL)
        method = String(c.method)
        protocolRevision = String(c.protocol_revision)
        callID = c.call_id
        context = RequestContexts.shared.lookup(c.request_data)
        status = Status(c.status)
        jsonrpcCode = c.jsonrpc_code
        statusMessage = String(c.status_message)
        duration = .nanoseconds(Int64(clamping: c.duration_ns))
        queueWait = c.has_queue_wait ? .nanoseconds(Int64(clamping: c.queue_wait_ns)) : nil
        items = c.items
        bytes = c.bytes
        partial = c.partial
        uri = String(c.uri)
        var hash = [UInt8](repeating: 0, count: Int(MCPR_EVENT_HASH_BYTES))
        uriHash = hash.withUnsafeMutableBufferPointer { mcpr_event_uri_hash(e, $0.baseAddress!) } ? hash : nil
        rule = String(c.rule_name)
        isPrivate = c.is_private
        let pub = String(mcpr_event_json(e, false))
        publicJSON = pub.isEmpty ? nil : pub
        privateJSON = String(mcpr_event_json(e, true))
        privateCause = String(mcpr_event_private_cause(e))
    }
}

/// An observer: called on the calling thread or an executor's worker,
/// concurrently from many calls; it must not block. Swift cannot catch a
/// trap, so it must not trap either.
public typealias Observer = @Sendable (ObservedEvent) -> Void

final class ObserverBox: Sendable {
    let observe: Observer
    init(_ observe: @escaping Observer) { self.observe = observe }
}

func observerEvent(_ ud: UnsafeMutableRawPointer?, _ event: UnsafePointer<mcpr_event>) {
    guard let ud else { return }
    Unmanaged<ObserverBox>.fromOpaque(ud).takeUnretainedValue().observe(ObservedEvent(event))
}

func observerRelease(_ ud: UnsafeMutableRawPointer?) {
    guard let ud else { return }
    Unmanaged<ObserverBox>.fromOpaque(ud).release()
}

extension ResourcesBuilder {
    /// Sets (or replaces) the observer of the registry's calls; the library
    /// drops the closure once, after its last event (a replaced one at
    /// once).
    @discardableResult
    public func setObserver(_ options: ObserveOptions = [], _ observer: @escaping Observer) throws -> Self {
        try withRaw { b in
            var cb = mcpr_observer_callbacks()
            cb.struct_size = MemoryLayout<mcpr_observer_callbacks>.stride
            cb.on_event = observerEvent
            cb.release = observerRelease
            cb.flags = options.rawValue
            let ud = Unmanaged.passRetained(ObserverBox(observer))
            cb.user_data = ud.toOpaque()
            do {
                try check { mcpr_builder_set_observer(b, &cb, $0) }
            } catch {
                ud.release()  // the library releases only a table it accepted
                throw error
            }
        }
        return self
    }

    /// The key of the event hashes (32 to 1024 bytes): replicas sharing it
    /// give the same hashes. Without one the cursor key serves, and without
    /// either a random key per registry.
    @discardableResult
    public func setEventKey(_ key: [UInt8]) throws -> Self {
        try withRaw { b in
            try key.withUnsafeBufferPointer { k in
                try check { mcpr_builder_set_event_key(b, k.baseAddress, k.count, $0) }
            }
        }
        return self
    }
}

/// The calls of one method with one outcome (`mcpr_call_metrics`).
public struct CallMetrics: Sendable, Equatable {
    /// Calls counted.
    public let calls: UInt64
    /// Of them, partial results.
    public let partial: UInt64
    /// Their total duration.
    public let total: Duration
    /// The latency histogram: bucket 0 counts calls under 1,024 ns, bucket
    /// i (1 to 26) calls in [2^(9+i), 2^(10+i)) ns, the last the rest.
    public let buckets: [UInt64]
}

extension Resources {
    /// The call metrics of `method` (`"resources/read"`, ..., `"tools/call"`,
    /// `"embed"`) with `outcome` since the registry was built (no observer
    /// needed). An unknown method throws `invalidArgument`.
    public func metrics(method: String, outcome: Status = .ok) throws -> CallMetrics {
        var m = mcpr_call_metrics()
        m.struct_size = MemoryLayout<mcpr_call_metrics>.stride
        try withStr(method) { name in
            try check { mcpr_resources_get_metrics(raw, name, outcome.rawValue, &m, $0) }
        }
        let buckets = withUnsafeBytes(of: m.buckets) { Array($0.bindMemory(to: UInt64.self)) }
        return CallMetrics(calls: m.calls, partial: m.partial,
                           total: .nanoseconds(Int64(clamping: m.total_ns)), buckets: buckets)
    }

    /// The keyed hash events give `value` (a URI, a scope key) under this
    /// registry's event key: how a host finds the events about a URI it
    /// knows.
    public func eventHash(_ value: String) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(MCPR_EVENT_HASH_BYTES))
        try withStr(value) { v in
            try out.withUnsafeMutableBufferPointer { o in
                try check { mcpr_resources_event_hash(raw, v, o.baseAddress!, $0) }
            }
        }
        return out
    }
}
