// Reads: exact and template URIs, plans, partial results, payload setters,
// cache hints, the call's context and phases.
import MCPResources
import XCTest

/// A template binding planning two items per read, with the caller's
/// tenant (from the call's context) as authorization; item "bad" fails.
private struct PairBinding: ResourceResolver {
    func resolve(_ call: Call, _ match: Match, _ plan: PlanBuilder) throws {
        XCTAssertEqual(call.phase, .resolve)
        XCTAssertEqual(match.definition.name, "pair")
        XCTAssertTrue(match.definition.isTemplate)
        XCTAssertNil(match.capture("nope"))
        let id = try XCTUnwrap(match.capture("id"))
        XCTAssertEqual(match.captures.map(\.name), ["id"])
        let tenant = (call.context as? String) ?? "none"
        let auth = #"{"tenant":"\#(tenant)"}"#
        try plan.setRequested(uri: match.uri, authorization: auth)
        try plan.addItem(uri: "item://\(id)/good", authorization: auth)
        try plan.addItem(uri: "item://\(id)/bad", representation: "raw")
    }

    func read(_ call: Call, _ target: Target, _ payload: PayloadBuilder) throws {
        XCTAssertEqual(call.phase, .bodyRead)
        if target.uri.hasSuffix("/bad") {
            XCTAssertEqual(target.representation, "raw")
            throw CallbackFailure.failed("SECRET-STORAGE offline")
        }
        XCTAssertEqual(target.representation, "default")
        try payload.setText("good for \(target.authorization)")
    }
}

final class ReadTests: XCTestCase {
    func testAnExactReadServesTheBodyWithItsURIAndMimeType() throws {
        let r = try docsRegistry()
        let result = try r.read("doc://a", options: ReadOptions(protocolRevision: "2025-11-25"))
        XCTAssertFalse(result.isPartial)
        let item = try XCTUnwrap((object(result.json)["contents"] as? [[String: Any]])?.first)
        XCTAssertEqual(item["uri"] as? String, "doc://a")
        XCTAssertEqual(item["mimeType"] as? String, "text/plain")
        XCTAssertEqual(item["text"] as? String, "body of doc://a")
        XCTAssertNil(object(result.json)["ttlMs"], "no cache fields before 2026-07-28")
        result.withJSONBytes { XCTAssertEqual(String(decoding: $0, as: UTF8.self), result.json) }
    }

    func testATemplateReadPlansItemsWithTheContextAndAFailedItemMakesItPartial() throws {
        let b = ResourcesBuilder()
        try b.setAllowAllPolicy().add(#"{"uriTemplate":"pair://p/{id}","name":"pair"}"#, binding: PairBinding())
        let r = try b.build()
        let result = try r.read("pair://p/7", options: ReadOptions(context: "t-7"))
        XCTAssertTrue(result.isPartial)
        let contents = try XCTUnwrap(object(result.json)["contents"] as? [[String: Any]])
        XCTAssertEqual(contents.count, 2)
        XCTAssertTrue((contents[0]["uri"] as? String)?.hasPrefix("mcp-warning:") ?? false, "\(contents)")
        XCTAssertEqual(contents[1]["text"] as? String, #"good for {"tenant":"t-7"}"#)
        XCTAssertTrue(result.json.contains(#""code":"read_failed""#))
        XCTAssertFalse(result.json.contains("SECRET"), "a cause never reaches the result")
        // without a context the callbacks see nil
        XCTAssertEqual(try texts(r.read("pair://p/8")).last, #"good for {"tenant":"none"}"#)
    }

    func testPayloadSettersBlobMetaAndCacheHintsReachTheResult() throws {
        let b = ResourcesBuilder()
        try b.setAllowAllPolicy().setCacheHints(ttl: .seconds(60), policyCallerIndependent: true)
        try b.add(#"{"uri":"doc://bin","name":"bin"}"#, binding: BindingFunctions { call, target, out in
            XCTAssertGreaterThan(call.maxBytes, 0)
            XCTAssertGreaterThan(call.remaining, .zero)
            XCTAssertFalse(call.isCanceled)
            XCTAssertEqual(target.representation, "default")
            try out.setBlob([0, 1, 2, 255] as [UInt8], mimeType: "application/octet-stream")
            try out.setMeta(#"{"k":"v"}"#)
            try out.setCacheHints(CacheHints(ttl: .milliseconds(5000), callerIndependent: true))
        }, hints: CacheHints(ttl: .seconds(10), callerIndependent: true))
        let json = try b.build().read("doc://bin").json
        XCTAssertTrue(json.contains(#""blob":"AAEC/w==","_meta":{"k":"v"}"#), json)
        XCTAssertTrue(json.contains(#""ttlMs":5000,"cacheScope":"public""#), json)
    }

    func testAnEmptyTextStaysATextItem() throws {
        let b = ResourcesBuilder()
        try b.setAllowAllPolicy().add(#"{"uri":"doc://empty","name":"e"}"#) { _, _, out in try out.setText("") }
        let item = try XCTUnwrap((object(b.build().read("doc://empty").json)["contents"] as? [[String: Any]])?.first)
        XCTAssertEqual(item["text"] as? String, "")
    }

    func testARefusedPayloadSetterMakesTheItemInvalidContent() throws {
        let b = ResourcesBuilder()
        try b.setAllowAllPolicy().add(#"{"uri":"doc://x","name":"x"}"#) { _, _, out in
            try out.setText("x")
            try out.setMeta("[1]")  // not an object: refused, throws
        }
        let e = try XCTUnwrap(mcprError { try b.build().read("doc://x") })
        XCTAssertEqual(e.status, .invalidContent)
        XCTAssertTrue(e.cause.contains("MCPR_INVALID_CONTENT"), e.cause)
    }

    func testAReaderThrowingInvalidContentOrUnavailableShapesTheItem() throws {
        let b = ResourcesBuilder()
        try b.setAllowAllPolicy()
        try b.add(#"{"uri":"doc://pair","name":"p"}"#, binding: BindingFunctions(resolve: { _, m, plan in
            try plan.setRequested(uri: m.uri)
            for u in ["item://good", "item://bad", "item://gone"] { try plan.addItem(uri: u) }
        }, read: { _, t, out in
            if t.uri == "item://bad" { throw CallbackFailure.invalidContent("SECRET checksum") }
            if t.uri == "item://gone" { throw CallbackFailure.unavailable }
            try out.setText("good")
        }))
        let result = try b.build().read("doc://pair")
        XCTAssertTrue(result.isPartial)
        XCTAssertTrue(result.json.contains(#""code":"invalid_content""#), result.json)
        XCTAssertTrue(texts(result).contains("good"))
        XCTAssertFalse(result.json.contains("SECRET"))
    }

    func testASizeHintReplacesTheExactMeasurement() throws {
        struct Sized: ResourceSizeHinting {
            let hint: UInt64?
            let seen: Counter
            func read(_ call: Call, _ target: Target, _ payload: PayloadBuilder) throws {
                try payload.setText("body of \(target.uri)")
            }
            func sizeHint(_ target: Target, payloadBytes: UInt64, isBlob: Bool) -> UInt64? {
                XCTAssertEqual(target.uri, "doc://sized")
                XCTAssertEqual(payloadBytes, UInt64("body of doc://sized".utf8.count))
                XCTAssertFalse(isBlob)
                seen.add()
                return hint
            }
        }
        let seen = Counter()
        for (hint, fits) in [(UInt64(1) << 40, false), (nil, true)] as [(UInt64?, Bool)] {
            let b = ResourcesBuilder()
            try b.setAllowAllPolicy().add(#"{"uri":"doc://sized","name":"s"}"#, binding: Sized(hint: hint, seen: seen))
            let r = try b.build()
            if fits {
                XCTAssertEqual(try texts(r.read("doc://sized")), ["body of doc://sized"])
            } else {
                XCTAssertEqual(mcprError { try r.read("doc://sized") }?.status, .budgetExceeded)
            }
        }
        XCTAssertEqual(seen.count, 2)
    }

    func testThePolicySeesBothPhasesOfARead() throws {
        let phases = Recorder<Phase>()
        let r = try docsRegistry(PolicyFunctions(discover: { c, _ in phases.append(c.phase); return .allow },
                                                 visibility: { _, _ in .visible },
                                                 read: { c, _ in phases.append(c.phase); return .allow }))
        _ = try r.read("doc://a")
        XCTAssertTrue(phases.values.contains(.firstCheck))
        XCTAssertTrue(phases.values.contains(.recheck))
        _ = try r.list(ListOptions(scopeKey: "t"))
        XCTAssertEqual(phases.values.last, .listing)
    }

    func testADeniedReadAndAHiddenTargetAnswerNotFound() throws {
        let deny = try docsRegistry(PolicyFunctions(discover: { _, _ in .allow }, visibility: { _, _ in .visible },
                                                    read: { _, t in t.uri == "doc://a" ? .deny : .allow }))
        XCTAssertEqual(mcprError { try deny.read("doc://a") }?.status, .unavailable)
        XCTAssertNoThrow(try deny.read("doc://b"))
        let hide = try docsRegistry(PolicyFunctions(discover: { _, _ in .allow },
                                                    visibility: { _, t in t.uri == "doc://a" ? .hidden : .visible },
                                                    read: { _, _ in .allow }))
        XCTAssertEqual(mcprError { try hide.read("doc://a") }?.status, .unavailable)
    }
}
