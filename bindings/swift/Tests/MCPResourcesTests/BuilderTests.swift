// The builder: registration, release exactly once, refusals, limits,
// cursor keys, clocks, cache hints.
import CMCPResources
import MCPResources
import Synchronization
import XCTest

final class BuilderTests: XCTestCase {
    func testReleaseRunsExactlyOnceAfterTheLastReferenceAndNotBefore() throws {
        let bindingDead = Counter(), policyDead = Counter()
        var r: Resources? = try {
            let bs = Sentinel(bindingDead), ps = Sentinel(policyDead)
            let b = ResourcesBuilder()
            try b.setPolicy(PolicyFunctions(discover: { _, _ in _ = ps; return .allow },
                                            visibility: { _, _ in .visible }, read: { _, _ in .allow }))
            try b.add(#"{"uriTemplate":"note://n/{id}","name":"note"}"#,
                      binding: BindingFunctions(resolve: { _, m, plan in
                          _ = bs
                          try plan.setRequested(uri: m.uri)
                          try plan.addItem(uri: m.uri)
                      }, read: { _, t, p in try p.setText("body of \(t.uri)") }))
            return try b.build()
        }()
        XCTAssertEqual(bindingDead.count, 0)
        XCTAssertEqual(policyDead.count, 0)
        var copy: Resources? = r  // another Swift reference, the same library reference
        XCTAssertEqual(try texts(XCTUnwrap(copy).read("note://n/1")), ["body of note://n/1"])
        r = nil
        XCTAssertEqual(bindingDead.count, 0)
        XCTAssertEqual(try XCTUnwrap(copy).read("note://n/2").isPartial, false)
        copy = nil
        XCTAssertEqual(bindingDead.count, 1)
        XCTAssertEqual(policyDead.count, 1)
    }

    func testReleaseRunsExactlyOnceForABuilderDroppedUnbuiltAndForAFailedBuild() throws {
        let dead = Counter()
        do {
            let b = ResourcesBuilder()
            let s = Sentinel(dead)
            try b.add(#"{"uri":"doc://a","name":"a"}"#) { _, _, _ in _ = s }
            XCTAssertEqual(dead.count, 0)
        }
        XCTAssertEqual(dead.count, 1)

        // no policy: the build fails, and consumes the binding
        let dead2 = Counter()
        let b = ResourcesBuilder()
        do {
            let s = Sentinel(dead2)
            try b.add(#"{"uri":"doc://a","name":"a"}"#) { _, _, _ in _ = s }
        }
        XCTAssertNotEqual(mcprError { try b.build() }?.status, .ok)
        XCTAssertEqual(dead2.count, 1)
        // build() consumed the builder: every later call throws
        XCTAssertEqual(mcprError { try b.build() }?.status, .invalidArgument)
        XCTAssertEqual(mcprError { try b.setAllowAllPolicy() }?.status, .invalidArgument)
    }

    func testAFailedAddReleasesItsContextAtOnceAndThrows() throws {
        let b = ResourcesBuilder()
        for bad in ["not json", #"{"uri":"doc://a"}"#, #"{"uriTemplate":"a://{x}/y","name":"n"}"#] {
            let dead = Counter()
            do {
                let s = Sentinel(dead)
                let e = mcprError { try b.add(bad) { _, _, _ in _ = s } }
                XCTAssertEqual(e?.status, .invalidConfiguration, bad)
                XCTAssertFalse(e?.message.isEmpty ?? true)
            }
            XCTAssertEqual(dead.count, 1, "the refused binding is released at once: \(bad)")
        }
        // a completer on an exact URI is refused, and released
        let dead = Counter()
        do {
            let s = Sentinel(dead)
            let f = BindingFunctions(complete: { _, _, _ in _ = s }, read: { _, _, _ in })
            XCTAssertEqual(mcprError { try b.add(#"{"uri":"doc://x","name":"x"}"#, binding: f) }?.status,
                           .invalidConfiguration)
        }
        XCTAssertEqual(dead.count, 1)
        // refused hints (a TTL above 2^53 - 1 ms) release the binding too
        let dead3 = Counter()
        do {
            let s = Sentinel(dead3)
            let hints = CacheHints(ttl: .milliseconds(Int64(MCPR_MAX_TTL_MS) + 1))
            XCTAssertEqual(mcprError { try b.add(#"{"uri":"doc://y","name":"y"}"#, hints: hints) { _, _, _ in _ = s } }?
                .status, .invalidConfiguration)
        }
        XCTAssertEqual(dead3.count, 1)
        // the builder is still usable after refusals
        try b.setAllowAllPolicy().add(#"{"uri":"doc://ok","name":"ok"}"#, binding: textBinding)
        XCTAssertEqual(try texts(b.build().read("doc://ok")), ["body of doc://ok"])
    }

    func testAReplacedPolicyIsReleasedAtOnceAndTheNativeAllowAllServes() throws {
        let dead = Counter()
        let b = ResourcesBuilder()
        do {
            let s = Sentinel(dead)
            try b.setPolicy(PolicyFunctions(discover: { _, _ in _ = s; return .deny }))
        }
        XCTAssertEqual(dead.count, 0)
        try b.setAllowAllPolicy()
        XCTAssertEqual(dead.count, 1)
        try b.add(#"{"uri":"doc://a","name":"a"}"#, binding: textBinding)
        XCTAssertEqual(try texts(b.build().read("doc://a")), ["body of doc://a"])
    }

    func testAnEmptyPolicyFailsClosed() throws {
        let r = try docsRegistry(PolicyFunctions())
        XCTAssertEqual(mcprError { try r.read("doc://a") }?.status, .unavailable)
        XCTAssertFalse(try r.list(ListOptions(scopeKey: "t")).json.contains("doc://a"))
    }

    func testLimitsAreCheckedNegativeIsConfigurationUnknownIsArgument() throws {
        let b = ResourcesBuilder()
        XCTAssertEqual(mcprError { try b.setLimit(.maxItems, -1) }?.status, .invalidConfiguration)
        XCTAssertEqual(mcprError { try b.setLimit(Limit(rawValue: 999), 1) }?.status, .invalidArgument)
        try b.setAllowAllPolicy().setLimit(.defaultPageSize, 2)
        for u in ["doc://a", "doc://b", "doc://c"] { try b.add(#"{"uri":"\#(u)","name":"n"}"#, binding: textBinding) }
        let page = try b.build().list(ListOptions(scopeKey: "t"))
        XCTAssertEqual((object(page.json)["resources"] as? [Any])?.count, 2)
        XCTAssertNotNil(page.nextCursor)
        // a rule between limits is checked at build
        let c = ResourcesBuilder()
        try c.setAllowAllPolicy().setLimit(.defaultPageSize, 50).setLimit(.maxPageSize, 10)
        XCTAssertEqual(mcprError { try c.build() }?.status, .invalidConfiguration)
    }

    func testTheContentHashIdentifiesTheDefinitions() throws {
        let a = try docsRegistry(), b = try docsRegistry()
        XCTAssertEqual(a.contentHash.count, 32)
        XCTAssertEqual(a.contentHash, b.contentHash)
        let c = ResourcesBuilder()
        try c.setAllowAllPolicy().add(#"{"uri":"doc://other","name":"n"}"#, binding: textBinding)
        XCTAssertNotEqual(try c.build().contentHash, a.contentHash)
    }
}

private let clockNow = Atomic<UInt64>(1_700_000_000_000)
private func testClock(_: UnsafeMutableRawPointer?) -> UInt64 { clockNow.load(ordering: .sequentiallyConsistent) }

final class CursorTests: XCTestCase {
    func testACursorExpiresByTheRegistrysClockAndAKeyMakesReplicasAgree() throws {
        func make() throws -> Resources {
            let b = ResourcesBuilder()
            try b.setAllowAllPolicy().setClock(testClock).setCursorKey([UInt8](repeating: 7, count: 32))
            for u in ["doc://a", "doc://b", "doc://c"] { try b.add(#"{"uri":"\#(u)","name":"n"}"#, binding: textBinding) }
            return try b.build()
        }
        let r = try make(), replica = try make()
        var o = ListOptions(scopeKey: "tenant", pageSize: 1)
        o.cursor = try XCTUnwrap(r.list(o).nextCursor)
        XCTAssertTrue(try replica.list(o).json.contains("doc://b"))
        // bound to the scope key
        var other = o
        other.scopeKey = "another tenant"
        XCTAssertEqual(mcprError { try r.list(other) }?.status, .invalidRequest)
        clockNow.add(11 * 60 * 1000, ordering: .sequentiallyConsistent)  // past the ten-minute lifetime
        let e = try XCTUnwrap(mcprError { try r.list(o) })
        XCTAssertEqual(e.status, .invalidRequest)
        XCTAssertEqual(e.jsonrpcCode, -32602)
        XCTAssertEqual(mcprError { try ResourcesBuilder().setCursorKey(Array("short".utf8)) }?.status,
                       .invalidConfiguration)
    }
}
