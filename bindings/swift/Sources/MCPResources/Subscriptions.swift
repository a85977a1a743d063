// Subscriptions (docs/BEHAVIOUR.md §15): the notification types a registry
// declares, the `resources` capability object, and what a subscription
// request decided. The library decides and writes the JSON; the host keeps
// its sessions, listen streams and subscriber table, and delivers.
import CMCPResources

/// A set of MCP change-notification types (`MCPR_NOTIFY_*`).
public struct NotificationTypes: OptionSet, Hashable, Sendable {
    /// The C bits.
    public let rawValue: UInt32
    /// A set by its C bits (an unknown bit is refused where it is used).
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `notifications/resources/updated` for subscribed URIs (the
    /// capability's `subscribe`; a listen filter's `resourceSubscriptions`).
    public static let resourceUpdates = NotificationTypes(rawValue: UInt32(MCPR_NOTIFY_RESOURCE_UPDATES))
    /// `notifications/resources/list_changed` (the capability's
    /// `listChanged`; a listen filter's `resourcesListChanged`).
    public static let resourcesListChanged = NotificationTypes(rawValue: UInt32(MCPR_NOTIFY_RESOURCES_LIST_CHANGED))
    /// `notifications/tools/list_changed`: the host's, never the library's.
    public static let toolsListChanged = NotificationTypes(rawValue: UInt32(MCPR_NOTIFY_TOOLS_LIST_CHANGED))
    /// `notifications/prompts/list_changed`: the host's, never the library's.
    public static let promptsListChanged = NotificationTypes(rawValue: UInt32(MCPR_NOTIFY_PROMPTS_LIST_CHANGED))
    /// Both resource types.
    public static let resources: NotificationTypes = [.resourceUpdates, .resourcesListChanged]
}

extension ResourcesBuilder {
    /// Declares the resource notifications the host delivers for this
    /// registry (`.resourceUpdates`, `.resourcesListChanged`; default
    /// neither): `request` then decides `resources/subscribe` and the URIs
    /// of `subscriptions/listen`, and `capability` says so. A tool or
    /// prompt type, or an unknown bit, is refused (`invalidArgument`: those
    /// are the host's) and nothing changes.
    @discardableResult
    public func setNotifications(_ types: NotificationTypes) throws -> Self {
        let b = try live()
        try check { mcpr_builder_set_notifications(b, types.rawValue, $0) }
        return self
    }
}

extension Resources {
    /// The `resources` capability object to declare in `initialize` and
    /// `server/discover` results for `protocolRevision` (empty = the
    /// newest): `{}`, `{"subscribe":true}`, `{"listChanged":true}` or both,
    /// as declared with `setNotifications`.
    public func capability(protocolRevision: String = "") throws -> String {
        var out = mcpr_str(ptr: nil, len: 0)
        try withStr(protocolRevision) { rev in try check { mcpr_resources_capability(raw, rev, &out, $0) } }
        return String(out)
    }
}

/// Which request a `Subscription` answers (`mcpr_subscription_method`;
/// an open set of values, as `Status`).
public struct SubscriptionMethod: RawRepresentable, Hashable, Sendable {
    /// The C value (`MCPR_SUBSCRIPTION_*`).
    public let rawValue: UInt32
    /// A method by its C value.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `resources/subscribe`: record `uris[0]` for the session.
    public static let subscribe = SubscriptionMethod(rawValue: UInt32(MCPR_SUBSCRIPTION_SUBSCRIBE))
    /// `resources/unsubscribe`: forget `uris[0]` for the session.
    public static let unsubscribe = SubscriptionMethod(rawValue: UInt32(MCPR_SUBSCRIPTION_UNSUBSCRIBE))
    /// `subscriptions/listen`: record the stream until it ends.
    public static let listen = SubscriptionMethod(rawValue: UInt32(MCPR_SUBSCRIPTION_LISTEN))
}

/// What the host records after a successful subscription request
/// (`Response.subscription`; a copy of `mcpr_subscription`).
public struct Subscription: Sendable, Equatable {
    /// The request it answers.
    public let method: SubscriptionMethod
    /// The URIs to record (subscribe; a listen's honored subset, in request
    /// order, maybe none) or to forget (unsubscribe), byte for byte as the
    /// client sent them.
    public let uris: [String]
    /// The notification types honored (a listen's acknowledged filter;
    /// `.resourceUpdates` for a subscribe; none for an unsubscribe).
    public let honored: NotificationTypes
    /// The types the client asked for (a listen's whole filter, tools and
    /// prompts included, for a host answering those itself).
    public let requested: NotificationTypes
    /// A listen stream's subscription id, as the JSON text its messages
    /// carry (`1`, `"\"listen-1\""`); empty for subscribe and unsubscribe.
    public let id: String
    /// The revision of later messages to this subscriber (the request's,
    /// the per-request one when its params named one).
    public let protocolRevision: String

    init(_ raw: UnsafePointer<mcpr_subscription>) {
        method = SubscriptionMethod(rawValue: mcpr_subscription_request(raw))
        uris = (0..<mcpr_subscription_uri_count(raw)).map { String(mcpr_subscription_uri(raw, $0)) }
        honored = NotificationTypes(rawValue: mcpr_subscription_honored(raw))
        requested = NotificationTypes(rawValue: mcpr_subscription_requested(raw))
        id = String(mcpr_subscription_id(raw))
        protocolRevision = String(mcpr_subscription_protocol_revision(raw))
    }
}

extension Response {
    /// The result that ends a `subscriptions/listen` stream gracefully
    /// (`mcpr_notify_listen_closed`): send its `json` as the JSON-RPC
    /// `result` of the listen request, with that request's id, before
    /// closing the stream. `subscriptionID` is `Subscription.id`; an id that
    /// is not the JSON of a request id throws `invalidArgument`.
    public static func listenClosed(subscriptionID: String) throws -> Response {
        var out: UnsafeMutablePointer<mcpr_response>? = nil
        try withStr(subscriptionID) { id in try check { mcpr_notify_listen_closed(id, &out, $0) } }
        guard let out else { throw MCPRError(status: .internal, message: "the library returned no result") }
        return Response(out)
    }
}
