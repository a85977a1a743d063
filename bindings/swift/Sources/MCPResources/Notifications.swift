// Change notifications decided for many subscribers at once (docs/
// BEHAVIOUR.md §15): updates rechecked at send time, list changes after a
// registry swap (`ListChange`) or a permission change (listing
// fingerprints). Each subscriber's policy callbacks see its own `context`.
import CMCPResources

/// A caller's listing fingerprint: a 32-byte digest of which definitions
/// of one registry it can discover (`Resources.listingFingerprint`).
/// Private to the host: never send it (it would tell what the caller can
/// see).
public struct ListingFingerprint: Hashable, Sendable {
    /// The 32 bytes.
    public let bytes: [UInt8]

    /// A fingerprint of 32 bytes the host kept; other lengths give nil.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        self.bytes = bytes
    }
}

/// One subscriber of a change notification, as the host recorded it from a
/// `Subscription` (`mcpr_subscriber`).
public struct Subscriber: Sendable {
    /// The subscriber's identity: its policy callbacks read it as
    /// `Call.context`, as a request's `RequestOptions.context` is read.
    public var context: (any Sendable)?
    /// `Subscription.protocolRevision` (empty = the newest).
    public var protocolRevision: String
    /// `Subscription.id`: its listen stream's id, required from
    /// 2026-07-28 on; empty before.
    public var subscriptionID: String
    /// `notifyUpdated` only: the URI subscribed to, when it is not the
    /// URI that changed (it must still be honored too); nil = the changed
    /// one.
    public var uri: String?
    /// `notifyListingChanged` only (required there): the fingerprint from
    /// before the permission change.
    public var listing: ListingFingerprint?

    /// A subscriber with the given fields.
    public init(context: (any Sendable)? = nil, protocolRevision: String = "", subscriptionID: String = "",
                uri: String? = nil, listing: ListingFingerprint? = nil)
    {
        self.context = context
        self.protocolRevision = protocolRevision
        self.subscriptionID = subscriptionID
        self.uri = uri
        self.listing = listing
    }

    /// The subscriber a decision recorded: its revision and stream id, with
    /// the caller's `context`.
    public init(_ subscription: Subscription, context: (any Sendable)?) {
        self.init(context: context, protocolRevision: subscription.protocolRevision,
                  subscriptionID: subscription.id)
    }
}

/// Options of the notification calls (`mcpr_notify_options`): the
/// call's deadline, cancellation and executor (each subscriber brings its
/// own context and revision).
public struct NotifyOptions: Sendable {
    /// The deadline of the whole call (every subscriber is decided by then,
    /// or the call throws `deadlineExceeded` and nothing is to be sent);
    /// nil = only the registry's read timeout.
    public var timeout: Duration?
    /// Cancels the call from any thread (`canceled`; nothing to send).
    public var cancel: CancelToken?
    /// Runs every callback of the call as one job on its workers: the
    /// call then returns by its deadline whatever a callback does.
    public var executor: CallbackExecutor?

    /// Options with the given fields, the others at their defaults.
    public init(timeout: Duration? = nil, cancel: CancelToken? = nil, executor: CallbackExecutor? = nil) {
        self.timeout = timeout
        self.cancel = cancel
        self.executor = executor
    }

    func withC<R>(_ body: (UnsafePointer<mcpr_notify_options>) throws -> R) throws -> R {
        var c = mcpr_notify_options()
        mcpr_notify_options_init(&c)
        c.timeout_ms = try timeoutMilliseconds(timeout)
        c.cancel = cancel?.ref
        c.executor = executor?.ref
        return try withExtendedLifetime((cancel, executor)) { try body(&c) }
    }
}

/// One subscriber's outcome of a notification call.
public struct Notification: Sendable {
    /// The complete JSON-RPC notification to write to the subscriber's
    /// session or stream as it is; nil: send nothing (it may not learn of
    /// this change, never distinguished further, or its decision failed).
    public let message: String?
    /// `.ok` when the subscriber was decided (message or not), else the
    /// failure of its decision (`.policy`, `.invalidPlan`, ...).
    public let status: Status
    /// The private cause of a failed decision: log it, never send it.
    public let cause: String
    /// `notifyListingChanged` only: the subscriber's fingerprint now, to
    /// keep for the next permission change.
    public let listing: ListingFingerprint?
}

extension Resources {
    /// Decides one update for many subscribers (`mcpr_notify_updated`):
    /// `uri` changed; each subscriber, rechecked now under its own
    /// `context` (the read's root checks for `uri`, and for its `uri` when
    /// that is another one; nothing is read), gets the exact
    /// `notifications/resources/updated` message of its revision, or
    /// nothing. Throws (nothing to send) for an invalid `uri`, a host
    /// mistake in the subscribers (`invalidArgument`: no stream id from
    /// 2026-07-28 on, an unknown revision), cancellation and the deadline.
    public func notifyUpdated(_ uri: String, subscribers: [Subscriber],
                              options: NotifyOptions = NotifyOptions()) throws -> [Notification]
    {
        var out: UnsafeMutablePointer<mcpr_notifications>? = nil
        try options.withC { o in
            try withSubscribers(subscribers) { subs in
                try withStr(uri) { u in
                    try check { mcpr_notify_updated(raw, u, subs.baseAddress, subs.count, o, &out, $0) }
                }
            }
        }
        return try notifications(out)
    }

    /// The caller's listing fingerprint (`mcpr_listing_fingerprint`):
    /// `discover` asked about every definition under `options.context`.
    /// Take one for each caller whose permissions are about to change, for
    /// `notifyListingChanged`.
    public func listingFingerprint(options: ReadOptions = ReadOptions()) throws -> ListingFingerprint {
        var bytes = [UInt8](repeating: 0, count: 32)
        try options.withC { o in
            try bytes.withUnsafeMutableBufferPointer { b in
                guard let at = b.baseAddress else { throw MCPRError(status: .internal, message: "no buffer") }
                try check { mcpr_listing_fingerprint(raw, o, at, $0) }
            }
        }
        guard let f = ListingFingerprint(bytes: bytes) else { throw MCPRError(status: .internal, message: "no fingerprint") }
        return f
    }

    /// Decides a list change after a permission change
    /// (`mcpr_notify_listing_changed`): each subscriber's fingerprint is
    /// taken again and compared with its `listing` (required: a missing one
    /// throws `invalidArgument`); one whose listing changed gets the exact
    /// `notifications/resources/list_changed` message, the others nothing.
    /// `Notification.listing` is each new fingerprint.
    public func notifyListingChanged(_ subscribers: [Subscriber],
                                     options: NotifyOptions = NotifyOptions()) throws -> [Notification]
    {
        var out: UnsafeMutablePointer<mcpr_notifications>? = nil
        try options.withC { o in
            try withSubscribers(subscribers) { subs in
                try check { mcpr_notify_listing_changed(raw, subs.baseAddress, subs.count, o, &out, $0) }
            }
        }
        return try notifications(out)
    }
}

/// Two registries compared once, for a configuration reload
/// (`mcpr_list_change`): it holds what the decisions need (the differing
/// definitions and both policies), not the registries. Sendable: one
/// change serves every subscriber, from any thread.
public final class ListChange: @unchecked Sendable {
    let raw: UnsafeMutablePointer<mcpr_list_change>

    /// Compares `old` with `new` (resources and templates, by `uri` /
    /// `uriTemplate`, byte for byte). No callback runs.
    public init(from old: Resources, to new: Resources) throws {
        var out: UnsafeMutablePointer<mcpr_list_change>? = nil
        try check { mcpr_list_change_new(old.raw, new.raw, &out, $0) }
        guard let out else { throw MCPRError(status: .internal, message: "mcpr_list_change_new gave no change") }
        raw = out
    }

    deinit { mcpr_list_change_free(raw) }

    /// How many definitions differ; 0: nobody is ever told.
    public var count: Int { mcpr_list_change_count(raw) }

    /// Decides the change for many subscribers (`mcpr_notify_list_changed`):
    /// a subscriber who can discover a differing definition (a removed or
    /// changed one under the old registry's policy, an added or changed one
    /// under the new one's) gets the exact
    /// `notifications/resources/list_changed` message of its revision; the
    /// others nothing. Only the differing definitions are asked about.
    public func notify(_ subscribers: [Subscriber], options: NotifyOptions = NotifyOptions()) throws
        -> [Notification]
    {
        var out: UnsafeMutablePointer<mcpr_notifications>? = nil
        try options.withC { o in
            try withSubscribers(subscribers) { subs in
                try check { mcpr_notify_list_changed(raw, subs.baseAddress, subs.count, o, &out, $0) }
            }
        }
        return try notifications(out)
    }
}

/// The C subscribers of `subscribers`, valid during `body`: their contexts
/// registered for the call, their strings and fingerprints in one buffer.
private func withSubscribers<R>(_ subscribers: [Subscriber],
                                _ body: (UnsafeBufferPointer<mcpr_subscriber>) throws -> R) throws -> R
{
    if subscribers.isEmpty { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
    var bytes: [UInt8] = [0]  // never empty, so its storage has an address
    typealias Span = (at: Int, len: Int)
    func put(_ b: some Collection<UInt8>) -> Span {
        let at = bytes.count
        bytes.append(contentsOf: b)
        return (at, bytes.count - at)
    }
    let spans = subscribers.map { s in
        (put(s.protocolRevision.utf8), put(s.subscriptionID.utf8), put((s.uri ?? "").utf8),
         s.listing.map { put($0.bytes).at })
    }
    return try RequestContexts.shared.with(subscribers.map(\.context)) { data in
        try bytes.withUnsafeBufferPointer { buf in
            guard let base = buf.baseAddress else { throw MCPRError(status: .internal, message: "no buffer") }
            let str = { (s: Span) in
                mcpr_str(ptr: s.len == 0 ? nil : UnsafeRawPointer(base + s.at).assumingMemoryBound(to: CChar.self),
                         len: s.len)
            }
            let c: [mcpr_subscriber] = zip(spans, data).map { span, d in
                var s = mcpr_subscriber()
                mcpr_subscriber_init(&s)
                s.request_data = d
                s.protocol_revision = str(span.0)
                s.subscription_id = str(span.1)
                s.uri = str(span.2)
                s.listing = span.3.map { base + $0 }
                return s
            }
            return try c.withUnsafeBufferPointer { try body($0) }
        }
    }
}

/// Copies every outcome of a notification result, then frees it.
private func notifications(_ out: UnsafeMutablePointer<mcpr_notifications>?) throws -> [Notification] {
    guard let out else { throw MCPRError(status: .internal, message: "the library returned no result") }
    defer { mcpr_notifications_free(out) }
    return (0..<mcpr_notifications_count(out)).map { i in
        let m = mcpr_notifications_message(out, i)
        var fp = [UInt8](repeating: 0, count: 32)
        let has = fp.withUnsafeMutableBufferPointer { b in
            b.baseAddress.map { mcpr_notifications_listing(out, i, $0) } ?? false
        }
        return Notification(message: m.len == 0 ? nil : String(m), status: Status(mcpr_notifications_status(out, i)),
                            cause: String(mcpr_notifications_cause(out, i)),
                            listing: has ? ListingFingerprint(bytes: fp) : nil)
    }
}
