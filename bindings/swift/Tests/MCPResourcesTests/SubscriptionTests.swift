// Subscriptions and change notifications through the Swift wrapper
// (docs/BEHAVIOUR.md §15): what a subscription request decided, updates
// rechecked at send time under each subscriber's own context, list changes
// per caller, the capability object; hidden answers like unregistered.
import MCPResources
import Synchronization
import XCTest

/// A tenant-aware policy (the caller's context is its tenant name) whose
/// rules change while subscriptions stand; it records the phases it is
/// asked in and fails `discover` where told to.
private final class Tenants: ResourcePolicy {
    private struct Rules {
        var hidden: Set<String> = []  // "tenant uri"
        var undiscoverable: Set<String> = []
        var failing: Set<String> = []
        var phases: Set<UInt32> = []
    }
    private let rules = Mutex(Rules())

    func hide(_ tenant: String, _ uri: String) { _ = rules.withLock { $0.hidden.insert("\(tenant) \(uri)") } }
    func undiscover(_ tenant: String, _ uri: String) {
        _ = rules.withLock { $0.undiscoverable.insert("\(tenant) \(uri)") }
    }
    func fail(_ tenant: String) { _ = rules.withLock { $0.failing.insert(tenant) } }
    var phases: Set<UInt32> { rules.withLock { $0.phases } }

    private func key(_ call: Call, _ uri: String) -> String { "\(call.context as? String ?? "-") \(uri)" }

    func discover(_ call: Call, _ d: Definition) throws -> Access {
        let tenant = call.context as? String ?? "-"
        let (undiscoverable, failing) = rules.withLock { r in
            r.phases.insert(call.phase.rawValue)
            return (r.undiscoverable.contains(key(call, d.uri)), r.failing.contains(tenant))
        }
        if failing { throw CallbackFailure.failed("SECRET policy down for \(tenant)") }
        return undiscoverable ? .deny : .allow
    }

    func visibility(_ call: Call, _ t: Target) throws -> Visibility {
        rules.withLock { r in
            r.phases.insert(call.phase.rawValue)
            return r.hidden.contains(key(call, t.uri)) ? .hidden : .visible
        }
    }

    func read(_ call: Call, _ t: Target) throws -> Access { .allow }
}

/// Counts body reads: subscription decisions read no body.
private let reads = Counter()
private let countingBinding = BindingFunctions { _, t, out in
    reads.add()
    try out.setText("body of \(t.uri)")
}

private func subscribable(_ policy: Tenants, uris: [String] = ["doc://a", "doc://b", "doc://hidden"],
                          notifications: NotificationTypes = .resources) throws -> Resources
{
    let b = ResourcesBuilder()
    try b.setPolicy(policy).setNotifications(notifications)
    for u in uris { try b.add(#"{"uri":"\#(u)","name":"n"}"#, binding: countingBinding) }
    try b.add(#"{"uriTemplate":"note://n/{id}","name":"note"}"#, binding: countingBinding)
    return try b.build()
}

private let old = "2025-11-25"
private let new = "2026-07-28"

final class SubscriptionTests: XCTestCase {
    func testSubscribeIsHonoredExactlyWhenAReadWouldPassAndNotHonoredLooksLikeNothingRegistered() throws {
        let policy = Tenants()
        policy.hide("t1", "doc://hidden")
        let r = try subscribable(policy)
        let before = reads.count
        let o = RequestOptions(protocolRevision: old, context: "t1")
        for uri in ["doc://a", "note://n/7"] {
            let ok = try r.request(method: "resources/subscribe", params: #"{"uri":"\#(uri)"}"#, options: o)
            XCTAssertFalse(ok.isError || ok.isNotification)
            XCTAssertEqual(ok.json, "{}")
            let d = try XCTUnwrap(ok.subscription)
            XCTAssertEqual(d.method, .subscribe)
            XCTAssertEqual(d.uris, [uri])
            XCTAssertEqual(d.honored, .resourceUpdates)
            XCTAssertEqual(d.id, "")
            XCTAssertEqual(d.protocolRevision, old)
        }
        let hidden = try r.request(method: "resources/subscribe", params: #"{"uri":"doc://hidden"}"#, options: o)
        let missing = try r.request(method: "resources/subscribe", params: #"{"uri":"doc://missing"}"#, options: o)
        XCTAssertTrue(hidden.isError && missing.isError)
        XCTAssertNil(hidden.subscription)
        XCTAssertNil(missing.subscription)
        XCTAssertEqual(hidden.json.replacingOccurrences(of: "doc://hidden", with: "URI"),
                       missing.json.replacingOccurrences(of: "doc://missing", with: "URI"))
        XCTAssertEqual(object(hidden.json)["code"] as? Int, -32002)
        // the same bytes as a read of it
        let read = try r.request(method: "resources/read", params: #"{"uri":"doc://hidden"}"#, options: o)
        XCTAssertEqual(hidden.json, read.json)
        // unsubscribe asks nobody and always succeeds
        let un = try r.request(method: "resources/unsubscribe", params: #"{"uri":"doc://missing"}"#, options: o)
        XCTAssertEqual(un.json, "{}")
        XCTAssertEqual(un.subscription?.method, .unsubscribe)
        XCTAssertEqual(un.subscription?.honored, [])
        XCTAssertEqual(reads.count, before, "deciding reads no body")
        XCTAssertTrue(policy.phases.isSubset(of: [Phase.subscription.rawValue, Phase.firstCheck.rawValue,
                                                  Phase.recheck.rawValue]))
        XCTAssertTrue(policy.phases.contains(Phase.subscription.rawValue))
        // without a declaration, and on 2026-07-28, there is no such method
        let plain = try subscribable(Tenants(), notifications: [])
        XCTAssertEqual(mcprError { try plain.request(method: "resources/subscribe", params: #"{"uri":"doc://a"}"#,
                                                     options: o) }?.status, .methodNotHandled)
        XCTAssertEqual(mcprError { try r.request(method: "resources/subscribe", params: #"{"uri":"doc://a"}"#,
                                                 options: RequestOptions(protocolRevision: new)) }?.status,
                       .methodNotHandled)
    }

    func testListenAcknowledgesTheHonoredSubsetWithItsStreamIDAndEndsWithItsResult() throws {
        let policy = Tenants()
        policy.hide("t1", "doc://hidden")
        let r = try subscribable(policy)
        let o = RequestOptions(protocolRevision: new, context: "t1", requestID: #""l-1""#,
                               hostNotifications: .toolsListChanged)
        let params = #"{"notifications":{"toolsListChanged":true,"promptsListChanged":true,"#
            + #""resourcesListChanged":true,"resourceSubscriptions":["doc://hidden","doc://a","doc://missing","note://n/1"]}}"#
        let ack = try r.request(method: "subscriptions/listen", params: params, options: o)
        XCTAssertTrue(ack.isNotification)
        XCTAssertFalse(ack.isError)
        let msg = object(ack.json)
        XCTAssertEqual(msg["method"] as? String, "notifications/subscriptions/acknowledged")
        let p = try XCTUnwrap(msg["params"] as? [String: Any])
        XCTAssertEqual((p["_meta"] as? [String: Any])?["io.modelcontextprotocol/subscriptionId"] as? String, "l-1")
        let filter = try XCTUnwrap(p["notifications"] as? [String: Any])
        XCTAssertEqual(filter["resourceSubscriptions"] as? [String], ["doc://a", "note://n/1"])
        XCTAssertEqual(filter["toolsListChanged"] as? Bool, true)
        XCTAssertEqual(filter["resourcesListChanged"] as? Bool, true)
        XCTAssertNil(filter["promptsListChanged"], "nobody delivers prompts list changes")
        let d = try XCTUnwrap(ack.subscription)
        XCTAssertEqual(d.method, .listen)
        XCTAssertEqual(d.uris, ["doc://a", "note://n/1"])
        XCTAssertEqual(d.honored, [.resourceUpdates, .resourcesListChanged, .toolsListChanged])
        XCTAssertEqual(d.requested, [.resourceUpdates, .resourcesListChanged, .toolsListChanged, .promptsListChanged])
        XCTAssertEqual(d.id, #""l-1""#)
        XCTAssertEqual(d.protocolRevision, new)
        XCTAssertEqual(try Response.listenClosed(subscriptionID: d.id).json,
                       #"{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":"l-1"}}"#)
        XCTAssertEqual(mcprError { try Response.listenClosed(subscriptionID: "{}") }?.status, .invalidArgument)
        // hidden and unregistered leave the acknowledgement alike
        let one = try r.request(method: "subscriptions/listen",
                                params: #"{"notifications":{"resourceSubscriptions":["doc://hidden"]}}"#, options: o)
        let other = try r.request(method: "subscriptions/listen",
                                  params: #"{"notifications":{"resourceSubscriptions":["doc://nothing"]}}"#, options: o)
        XCTAssertEqual(one.json, other.json)
        XCTAssertEqual(one.subscription, other.subscription)
    }

    func testSubscriptionMessagesCarryTheirDecisionAndAListenItsOwnID() throws {
        let policy = Tenants()
        policy.hide("t1", "doc://hidden")
        let r = try subscribable(policy)
        // requestID is for request(); a message's listen takes the message's id
        let o = RequestOptions(protocolRevision: new, context: "t1", requestID: "999")
        let listen = #"{"jsonrpc":"2.0","id":"m-1","method":"subscriptions/listen","params":"#
            + #"{"notifications":{"resourceSubscriptions":["doc://hidden","doc://a"]}}}"#
        let ack = try r.message(listen, options: o)
        XCTAssertTrue(ack.handled && ack.isNotification && !ack.isError)
        XCTAssertEqual(ack.json, #"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":"#
            + #"{"_meta":{"io.modelcontextprotocol/subscriptionId":"m-1"},"notifications":"#
            + #"{"resourceSubscriptions":["doc://a"]}}}"#)
        XCTAssertEqual(ack.id, #""m-1""#)
        let d = try XCTUnwrap(ack.subscription)
        XCTAssertEqual(d.method, .listen)
        XCTAssertEqual(d.id, #""m-1""#)
        XCTAssertEqual(d.uris, ["doc://a"])
        let old = RequestOptions(protocolRevision: old, context: "t1")
        let sub = try r.message(#"{"jsonrpc":"2.0","id":4,"method":"resources/subscribe","params":{"uri":"doc://a"}}"#,
                                options: old)
        XCTAssertEqual(sub.json, #"{"jsonrpc":"2.0","id":4,"result":{}}"#)
        XCTAssertFalse(sub.isNotification)
        XCTAssertEqual(sub.subscription?.method, .subscribe)
        let hidden = try r.message(
            #"{"jsonrpc":"2.0","id":4,"method":"resources/subscribe","params":{"uri":"doc://hidden"}}"#, options: old)
        let missing = try r.message(
            #"{"jsonrpc":"2.0","id":4,"method":"resources/subscribe","params":{"uri":"doc://missing"}}"#, options: old)
        XCTAssertTrue(hidden.isError && !hidden.isNotification)
        XCTAssertNil(hidden.subscription)
        XCTAssertEqual(hidden.json.replacingOccurrences(of: "doc://hidden", with: "URI"),
                       missing.json.replacingOccurrences(of: "doc://missing", with: "URI"))
    }

    func testBadListenInputAndHostMistakes() throws {
        let r = try subscribable(Tenants())
        let o = RequestOptions(protocolRevision: new, context: "t1", requestID: "1")
        let dup = try r.request(method: "subscriptions/listen",
                                params: #"{"notifications":{"resourceSubscriptions":["doc://a","doc://a"]}}"#, options: o)
        XCTAssertTrue(dup.isError)
        XCTAssertNil(dup.subscription)
        XCTAssertEqual(object(dup.json)["code"] as? Int, -32602)
        XCTAssertEqual(object(dup.json)["message"] as? String, "notifications resourceSubscriptions repeats a URI")
        // a listen with no request id, or one that is no JSON id, is the host's mistake
        var noID = o
        noID.requestID = ""
        XCTAssertEqual(mcprError { try r.request(method: "subscriptions/listen", params: #"{"notifications":{}}"#,
                                                 options: noID) }?.status, .invalidArgument)
        var badID = o
        badID.requestID = "{}"
        XCTAssertEqual(mcprError { try r.request(method: "subscriptions/listen", params: "[", options: badID) }?.status,
                       .invalidArgument)
        // the resource types are the registry's, not the host's
        var hostResources = o
        hostResources.hostNotifications = .resourceUpdates
        XCTAssertEqual(mcprError { try r.request(method: "subscriptions/listen", params: #"{"notifications":{}}"#,
                                                 options: hostResources) }?.status, .invalidArgument)
        // before 2026-07-28 there is no listen
        XCTAssertEqual(mcprError { try r.request(method: "subscriptions/listen", params: #"{"notifications":{}}"#,
                                                 options: RequestOptions(protocolRevision: old)) }?.status,
                       .methodNotHandled)
    }

    func testUpdatesAreRecheckedAtSendTimeUnderEachSubscribersOwnContext() throws {
        let policy = Tenants()
        let r = try subscribable(policy)
        let ack = try r.request(method: "subscriptions/listen",
                                params: #"{"notifications":{"resourceSubscriptions":["doc://a"]}}"#,
                                options: RequestOptions(protocolRevision: new, context: "t1", requestID: "7"))
        let stream = Subscriber(try XCTUnwrap(ack.subscription), context: "t1")
        let session = Subscriber(context: "t2", protocolRevision: old)
        let before = reads.count
        var got = try r.notifyUpdated("doc://a", subscribers: [stream, session])
        XCTAssertEqual(got.map(\.message), [
            #"{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":7},"uri":"doc://a"}}"#,
            #"{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"doc://a"}}"#,
        ])
        XCTAssertEqual(got.map(\.status), [.ok, .ok])
        // t2 can no longer see the URI: it learns nothing, silently
        policy.hide("t2", "doc://a")
        got = try r.notifyUpdated("doc://a", subscribers: [stream, session])
        XCTAssertNotNil(got[0].message)
        XCTAssertNil(got[1].message)
        XCTAssertEqual(got[1].status, .ok)
        XCTAssertEqual(got[1].cause, "")
        // a URI nobody registered notifies nobody
        XCTAssertEqual(try r.notifyUpdated("doc://gone", subscribers: [stream, session]).map(\.message), [nil, nil])
        // a failed decision is that subscriber's only, its cause private
        policy.fail("t1")
        got = try r.notifyUpdated("doc://a", subscribers: [stream, Subscriber(context: "t3", protocolRevision: old)])
        XCTAssertNil(got[0].message)
        XCTAssertEqual(got[0].status, .policy)
        XCTAssertTrue(got[0].cause.contains("SECRET"))
        XCTAssertNotNil(got[1].message)
        XCTAssertFalse(got[1].message!.contains("SECRET"))
        // the same on an executor
        let pooled = try r.notifyUpdated("doc://a", subscribers: [stream, session],
                                         options: NotifyOptions(executor: try CallbackExecutor(threads: 2)))
        XCTAssertEqual(pooled.map(\.status), [.policy, .ok])
        XCTAssertEqual(pooled.map(\.message), [nil, nil])
        XCTAssertEqual(reads.count, before, "deciding reads no body")
        // host mistakes: a 2026-07-28 subscriber without its stream id, an unknown revision
        XCTAssertEqual(mcprError { try r.notifyUpdated("doc://a", subscribers: [Subscriber(protocolRevision: new)]) }?
            .status, .invalidArgument)
        XCTAssertEqual(mcprError { try r.notifyUpdated("doc://a", subscribers: [Subscriber(protocolRevision: "1999")]) }?
            .status, .invalidArgument)
        XCTAssertEqual(mcprError { try r.notifyUpdated("not a uri", subscribers: [session]) }?.status, .invalidRequest)
        // cancellation sends nothing at all
        let cancel = CancelToken()
        cancel.cancel()
        XCTAssertEqual(mcprError { try r.notifyUpdated("doc://a", subscribers: [session],
                                                       options: NotifyOptions(cancel: cancel)) }?.status, .canceled)
        XCTAssertEqual(try r.notifyUpdated("doc://a", subscribers: []).count, 0)
    }

    func testThousandsOfSubscribersInOneCallEachUnderItsOwnContext() throws {
        let policy = Tenants()
        for i in stride(from: 0, to: 5000, by: 2) { policy.hide("t\(i)", "doc://a") }
        let r = try subscribable(policy)
        let subs = (0..<5000).map { Subscriber(context: "t\($0)", protocolRevision: new, subscriptionID: "\($0)") }
        let got = try r.notifyUpdated("doc://a", subscribers: subs)
        XCTAssertEqual(got.count, 5000)
        for (i, n) in got.enumerated() {
            if i % 2 == 0 {
                XCTAssertNil(n.message, "t\(i) is hidden")
            } else {
                XCTAssertTrue(n.message?.contains(#""io.modelcontextprotocol/subscriptionId":\#(i)}"#) == true, "t\(i)")
            }
        }
    }

    func testAListChangeReachesOnlyCallersWhoCanDiscoverAChangedDefinition() throws {
        let policy = Tenants()
        policy.undiscover("t1", "doc://new")
        let before = try subscribable(policy, uris: ["doc://a"])
        let after = try subscribable(policy, uris: ["doc://a", "doc://new"])
        let change = try ListChange(from: before, to: after)
        XCTAssertEqual(change.count, 1)
        let subs = [Subscriber(context: "t1", protocolRevision: old), Subscriber(context: "t2", protocolRevision: old),
                    Subscriber(context: "t3", protocolRevision: new, subscriptionID: #""s""#)]
        let got = try change.notify(subs)
        XCTAssertEqual(got.map(\.message), [
            nil,
            #"{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}"#,
            #"{"jsonrpc":"2.0","method":"notifications/resources/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"s"}}}"#,
        ])
        XCTAssertEqual(try change.notify(subs, options: NotifyOptions(executor: try CallbackExecutor(threads: 2)))
            .map(\.message), got.map(\.message))
        // a registry compared with its equal tells nobody
        let same = try ListChange(from: before, to: try subscribable(policy, uris: ["doc://a"]))
        XCTAssertEqual(same.count, 0)
        XCTAssertEqual(try same.notify(subs).map(\.message), [nil, nil, nil])
        XCTAssertTrue(policy.phases.contains(Phase.subscription.rawValue))
    }

    func testAPermissionChangeTellsExactlyTheCallersWhoseListingChanged() throws {
        let policy = Tenants()
        let r = try subscribable(policy)
        let fp = { (t: String) in try r.listingFingerprint(options: ReadOptions(context: t)) }
        let (f1, f2) = (try fp("t1"), try fp("t2"))
        XCTAssertEqual(f1, f2)
        XCTAssertEqual(f1.bytes.count, 32)
        policy.undiscover("t1", "doc://b")  // t1 loses a definition
        policy.hide("t2", "doc://a")  // visibility is no listing change
        let subs = [Subscriber(context: "t1", protocolRevision: old, listing: f1),
                    Subscriber(context: "t2", protocolRevision: old, listing: f2)]
        let got = try r.notifyListingChanged(subs)
        XCTAssertEqual(got.map(\.message), [#"{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}"#, nil])
        XCTAssertEqual(got[0].listing, try fp("t1"))
        XCTAssertNotEqual(got[0].listing, f1)
        XCTAssertEqual(got[1].listing, f2)
        // every subscriber needs its fingerprint from before the change
        XCTAssertEqual(mcprError { try r.notifyListingChanged([Subscriber(context: "t1", protocolRevision: old)]) }?
            .status, .invalidArgument)
        XCTAssertNil(ListingFingerprint(bytes: [1, 2, 3]))
        policy.fail("t3")
        XCTAssertEqual(mcprError { try fp("t3") }?.status, .policy)
    }

    func testTheCapabilityFollowsTheDeclarationAndToolTypesAreNotTheRegistrys() throws {
        XCTAssertEqual(try subscribable(Tenants(), notifications: []).capability(), "{}")
        XCTAssertEqual(try subscribable(Tenants(), notifications: .resourceUpdates).capability(protocolRevision: old),
                       #"{"subscribe":true}"#)
        XCTAssertEqual(try subscribable(Tenants()).capability(protocolRevision: new),
                       #"{"subscribe":true,"listChanged":true}"#)
        XCTAssertEqual(mcprError { try subscribable(Tenants()).capability(protocolRevision: "1999") }?.status,
                       .invalidArgument)
        XCTAssertEqual(mcprError { try subscribable(Tenants(), notifications: .toolsListChanged) }?.status,
                       .invalidArgument)
        XCTAssertEqual(mcprError { try ResourcesBuilder().setNotifications(NotificationTypes(rawValue: 64)) }?.status,
                       .invalidArgument)
    }

    func testSubscriberContextsLiveForTheCallOnly() throws {
        let deaths = Counter()
        let r = try subscribable(Tenants())
        do {
            let subs = (0..<3).map { _ in Subscriber(context: Sentinel(deaths), protocolRevision: old) }
            XCTAssertEqual(try r.notifyUpdated("doc://a", subscribers: subs).compactMap(\.message).count, 3)
            let change = try ListChange(from: r, to: try subscribable(Tenants(), uris: ["doc://z"]))
            XCTAssertEqual(try change.notify(subs).compactMap(\.message).count, 3)
        }
        XCTAssertEqual(deaths.count, 3, "the table keeps no subscriber's context after the call")
    }

    /// BEHAVIOUR §15 rule 13: the subscription methods through the
    /// asynchronous calls (§20) answer and decide as the blocking ones; a
    /// listen message takes the message's own id; `resources/subscribe` on
    /// 2026-07-28 is not handled, through the completion.
    func testTheSubscriptionMethodsAsAsyncCallsAnswerAndDecideAsTheBlockingOnes() async throws {
        let policy = Tenants()
        policy.hide("t1", "doc://hidden")
        let r = try subscribable(policy)
        let executor = try CallbackExecutor(threads: 2)
        let before = reads.count
        let o = RequestOptions(protocolRevision: old, context: "t1")
        for (method, params) in [("resources/subscribe", #"{"uri":"doc://a"}"#),
                                 ("resources/subscribe", #"{"uri":"note://n/7"}"#),
                                 ("resources/subscribe", #"{"uri":"doc://hidden"}"#),
                                 ("resources/subscribe", #"{"uri":"doc://missing"}"#),
                                 ("resources/unsubscribe", #"{"uri":"doc://hidden"}"#)]
        {
            let started = try await r.request(method: method, params: params, on: executor, options: o)
            let blocking = try r.request(method: method, params: params, options: o)
            XCTAssertEqual(started.json, blocking.json, params)
            XCTAssertEqual(started.isError, blocking.isError)
            XCTAssertEqual(started.subscription, blocking.subscription)
        }
        let listenOptions = RequestOptions(protocolRevision: new, context: "t1", requestID: #""l-2""#)
        let params = #"{"notifications":{"resourceSubscriptions":["doc://hidden","doc://a"]}}"#
        let ack = try await r.request(method: "subscriptions/listen", params: params, on: executor,
                                      options: listenOptions)
        XCTAssertTrue(ack.isNotification)
        XCTAssertEqual(ack.json, try r.request(method: "subscriptions/listen", params: params,
                                               options: listenOptions).json)
        XCTAssertEqual(ack.subscription?.uris, ["doc://a"])
        XCTAssertEqual(ack.subscription?.id, #""l-2""#)
        let message = #"{"jsonrpc":"2.0","id":"m-3","method":"subscriptions/listen","params":"# + params + "}"
        let reply = try await r.message(message, on: executor, options: listenOptions)
        XCTAssertTrue(reply.isNotification)
        XCTAssertEqual(reply.json, try r.message(message, options: listenOptions).json)
        XCTAssertEqual(reply.subscription?.id, #""m-3""#)
        let unserved = await asyncError {
            try await r.request(method: "resources/subscribe", params: #"{"uri":"doc://a"}"#, on: executor,
                                options: RequestOptions(protocolRevision: new, context: "t1"))
        }
        XCTAssertEqual(unserved?.status, .methodNotHandled)
        XCTAssertTrue(policy.phases.contains(Phase.subscription.rawValue))
        XCTAssertEqual(reads.count, before, "a decision reads no body")
    }
}
