// Listings with cursors, and the one-call request.
import MCPResources
import XCTest

final class ListTests: XCTestCase {
    func testPaginationFollowsNextCursorsToTheEndInOrderWithoutHiddenDefinitions() throws {
        let r = try docsRegistry(PolicyFunctions(discover: { _, d in d.uri == "doc://hidden" ? .deny : .allow },
                                                 visibility: { _, _ in .visible }, read: { _, _ in .allow }))
        var uris: [String] = []
        var cursor: String? = nil
        var pages = 0
        repeat {
            let page = try r.list(ListOptions(scopeKey: "tenant", cursor: cursor, pageSize: 2,
                                              protocolRevision: "2026-07-28"))
            let o = object(page.json)
            XCTAssertEqual(o["resultType"] as? String, "complete")
            XCTAssertNotNil(o["ttlMs"])
            uris += ((o["resources"] as? [[String: Any]]) ?? []).compactMap { $0["uri"] as? String }
            cursor = page.nextCursor
            pages += 1
            XCTAssertLessThan(pages, 10)
        } while cursor != nil
        XCTAssertEqual(pages, 3)
        XCTAssertEqual(uris, ["doc://a", "doc://b", "doc://c", "doc://d", "doc://e"])
        let templates = try r.listTemplates(ListOptions(scopeKey: "tenant"))
        XCTAssertTrue(templates.json.contains(#""uriTemplate":"note://n/{id}""#))
        XCTAssertNil(templates.nextCursor)
    }

    func testAForgedCursorIsInvalidRequestAndAMissingScopeKeyAnInvalidArgument() throws {
        let r = try docsRegistry()
        let e = try XCTUnwrap(mcprError { try r.list(ListOptions(scopeKey: "t", cursor: "forged")) })
        XCTAssertEqual(e.status, .invalidRequest)
        XCTAssertEqual(object(e.jsonrpcJSON)["message"] as? String, "Invalid cursor")
        // an empty scope key is a host mistake, answered alike by every entry point
        XCTAssertEqual(mcprError { try r.list(ListOptions(scopeKey: "")) }?.status, .invalidArgument)
        // a list cursor is no templates cursor
        let c = try XCTUnwrap(r.list(ListOptions(scopeKey: "t", pageSize: 1)).nextCursor)
        XCTAssertEqual(mcprError { try r.listTemplates(ListOptions(scopeKey: "t", cursor: c)) }?.status, .invalidRequest)
    }
}

final class RequestTests: XCTestCase {
    func testTheOneCallRequestServesReadListTemplatesAndCompletion() throws {
        let r = try docsRegistry()
        let o = RequestOptions(protocolRevision: "2025-11-25", scopeKey: "tenant")
        let read = try r.request(method: "resources/read", params: #"{"uri":"doc://a"}"#, options: o)
        XCTAssertFalse(read.isError)
        XCTAssertEqual(read.status, .ok)
        XCTAssertFalse(read.isPartial)
        XCTAssertTrue(read.json.contains("body of doc://a"))
        let list = try r.request(method: "resources/list", params: nil, options: o)
        XCTAssertTrue(list.json.contains("doc://e"))
        let templates = try r.request(method: "resources/templates/list", params: "{}", options: o)
        XCTAssertTrue(templates.json.contains("note://n/{id}"))
        let complete = try r.request(method: "completion/complete", params:
            #"{"ref":{"type":"ref/resource","uri":"note://n/{id}"},"argument":{"name":"id","value":"x"}}"#, options: o)
        XCTAssertFalse(complete.isError, complete.json)
        XCTAssertTrue(complete.json.contains(#""values":[]"#), complete.json)
        // the raw-bytes variant serves the same
        let bytes = Array(#"{"uri":"doc://b"}"#.utf8)
        let viaBytes = try bytes.withUnsafeBytes { try r.request(method: "resources/read", paramsBytes: $0, options: o) }
        XCTAssertTrue(viaBytes.json.contains("body of doc://b"))
        viaBytes.withJSONBytes { XCTAssertEqual(String(decoding: $0, as: UTF8.self), viaBytes.json) }
    }

    func testAClientMistakeIsAnErrorResponseShapedForTheRevision() throws {
        let r = try docsRegistry()
        for (rev, code) in [("2025-11-25", -32002), ("2026-07-28", -32602)] {
            let resp = try r.request(method: "resources/read", params: #"{"uri":"doc://missing"}"#,
                                     options: RequestOptions(protocolRevision: rev))
            XCTAssertTrue(resp.isError)
            XCTAssertEqual(resp.status, .unavailable)
            XCTAssertFalse(resp.cause.isEmpty)
            let o = object(resp.json)
            XCTAssertEqual(o["code"] as? Int, code)
            XCTAssertEqual((o["data"] as? [String: Any])?["uri"] as? String, "doc://missing")
        }
        // the request's own _meta revision wins
        let meta = #"{"uri":"doc://missing","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}"#
        let resp = try r.request(method: "resources/read", params: meta, options: RequestOptions(protocolRevision: "2025-11-25"))
        XCTAssertEqual(object(resp.json)["code"] as? Int, -32602)
        // malformed params
        let bad = try r.request(method: "resources/read", params: #"{"uri":5}"#)
        XCTAssertTrue(bad.isError)
        XCTAssertEqual(object(bad.json)["code"] as? Int, -32602)
    }

    func testOtherMethodsAndHostMistakesThrow() throws {
        let r = try docsRegistry()
        let e = try XCTUnwrap(mcprError { try r.request(method: "tools/list", params: nil) })
        XCTAssertEqual(e.status, .methodNotHandled)
        XCTAssertEqual(e.jsonrpcCode, -32601)
        let prompt = #"{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":""}}"#
        XCTAssertEqual(mcprError { try r.request(method: "completion/complete", params: prompt) }?.status,
                       .methodNotHandled)
        // a listing needs the caller's scope key
        XCTAssertEqual(mcprError { try r.request(method: "resources/list", params: nil) }?.status, .invalidArgument)
    }
}
