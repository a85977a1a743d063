// Observability in the Swift wrapper: the observer closure, decisions, the
// disclosure rule, its release, metrics and event hashes.
import MCPResources
import XCTest

final class ObserveTests: XCTestCase {
    private let hiding = PolicyFunctions(discover: { _, _ in .allow },
                                         visibility: { _, t in t.uri == "doc://hidden" ? .hidden : .visible },
                                         read: { _, _ in .allow })

    private func observed(_ options: ObserveOptions, _ events: Recorder<ObservedEvent>,
                          sentinel: Sentinel? = nil) throws -> Resources
    {
        let b = ResourcesBuilder()
        try b.setPolicy(hiding)
        for u in ["doc://a", "doc://hidden"] {
            try b.add(#"{"uri":"\#(u)","name":"n"}"#, binding: textBinding)
        }
        try b.setEventKey(Array("one event key for the whole fleet".utf8))
        try b.setObserver(options) { e in
            _ = sentinel
            events.append(e)
        }
        return try b.build()
    }

    func testOneCallEventPerCallWithItsOutcomeAndTheCallersContext() throws {
        let events = Recorder<ObservedEvent>()
        let r = try observed([], events)
        _ = try r.read("doc://a", options: ReadOptions(context: "alice"))
        XCTAssertEqual(mcprError { try r.read("doc://missing") }?.status, .unavailable)
        _ = try r.list(ListOptions(scopeKey: "tenant"))
        _ = try r.request(method: "resources/read", params: #"{"uri":1}"#)
        XCTAssertThrowsError(try r.request(method: "tools/list", params: nil))
        let e = events.values
        XCTAssertEqual(e.map(\.method), ["resources/read", "resources/read", "resources/list", "resources/read"])
        XCTAssertTrue(e.allSatisfy(\.isCall))
        XCTAssertEqual(e.map(\.status), [.ok, .unavailable, .ok, .invalidRequest])
        XCTAssertEqual(e[0].context as? String, "alice")
        XCTAssertEqual(e[0].items, 1)
        XCTAssertEqual(e[0].uri, "", "visible, not disclosed: no URI in plain")
        XCTAssertEqual(e[0].uriHash, try r.eventHash("doc://a"))
        XCTAssertEqual(e[1].uriHash, try r.eventHash("doc://missing"))
        XCTAssertNotNil(e[0].publicJSON)
        XCTAssertTrue(e[0].privateJSON.contains(#""method":"resources/read""#))
    }

    func testDecisionsNeverShowAHiddenURIAndHiddenLooksLikeMissing() throws {
        let events = Recorder<ObservedEvent>()
        let r = try observed([.decisions], events)
        XCTAssertEqual(mcprError { try r.read("doc://hidden") }?.status, .unavailable)
        let hidden = events.values
        XCTAssertEqual(hidden.count, 2)
        XCTAssertEqual(hidden[0].rule, "hidden")
        XCTAssertTrue(hidden[0].isPrivate)
        XCTAssertNil(hidden[0].publicJSON)
        let other = Recorder<ObservedEvent>()
        let r2 = try observed([.decisions], other)
        XCTAssertEqual(mcprError { try r2.read("doc://hidden-not-registered") }?.status, .unavailable)
        // The public call events differ only in the hash of the URI sent
        // and the timings.
        func publicShape(_ e: ObservedEvent) -> [String] {
            [e.method, e.status.name, e.statusMessage, String(e.jsonrpcCode), String(e.items), e.uri]
        }
        XCTAssertEqual(publicShape(hidden[1]), publicShape(other.values[1]))
        for e in hidden { XCTAssertFalse((e.publicJSON ?? "").contains("doc://hidden")) }
    }

    func testTheObserverIsReleasedOnceAndMetricsCountWithoutOne() throws {
        let drops = Counter()
        do {
            let events = Recorder<ObservedEvent>()
            let r = try observed([], events, sentinel: Sentinel(drops))
            _ = try r.read("doc://a")
            XCTAssertEqual(drops.count, 0)
        }
        XCTAssertEqual(drops.count, 1)
        let r = try docsRegistry()
        _ = try r.read("doc://a")
        _ = try r.read("doc://a")
        XCTAssertNotNil(mcprError { try r.read("doc://zz") })
        let ok = try r.metrics(method: "resources/read")
        XCTAssertEqual(ok.calls, 2)
        XCTAssertEqual(ok.buckets.count, 28)
        XCTAssertEqual(ok.buckets.reduce(0, +), 2)
        XCTAssertEqual(try r.metrics(method: "resources/read", outcome: .unavailable).calls, 1)
        XCTAssertEqual(try r.metrics(method: "embed").calls, 0)
        XCTAssertEqual(mcprError { try r.metrics(method: "nope") }?.status, .invalidArgument)
        XCTAssertEqual(mcprError { try ResourcesBuilder().setEventKey([1, 2]).build() }?.status,
                       .invalidConfiguration)
    }
}
