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

    func testTheOneCallMessageAnswersWholeMessagesAndHandsTheRestToTheHost() throws {
        let r = try docsRegistry()
        let o = RequestOptions(protocolRevision: "2025-11-25", scopeKey: "tenant")
        let read = try r.message(#"{"jsonrpc":"2.0","id":"r\u0031","method":"resources/read","params":{"uri":"doc://a"}}"#,
                                 options: o)
        XCTAssertTrue(read.handled)
        XCTAssertEqual(read.kind, .request)
        XCTAssertTrue(read.json.hasPrefix(#"{"jsonrpc":"2.0","id":"r\u0031","result":{"contents":"#))
        XCTAssertEqual(read.id, #""r\u0031""#)
        XCTAssertEqual(read.method, "resources/read")
        XCTAssertEqual(read.status, .ok)
        XCTAssertFalse(read.isError)
        let expected = try r.request(method: "resources/read", params: #"{"uri":"doc://a"}"#, options: o)
        XCTAssertEqual(read.json, #"{"jsonrpc":"2.0","id":"r\u0031","result":\#(expected.json)}"#)

        let notFound = try r.message(#"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"doc://x"}}"#,
                                     options: o)
        XCTAssertEqual(notFound.json, #"{"jsonrpc":"2.0","id":2,"error":{"code":-32002,"message":"Resource not found","data":{"uri":"doc://x"}}}"#)
        XCTAssertEqual(notFound.status, .unavailable)
        XCTAssertTrue(notFound.isError)

        let garbage = try r.message("garbage", options: o)
        XCTAssertEqual(garbage.json, #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#)
        XCTAssertEqual(garbage.kind, .invalid)
        let batch = try r.message(#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#, options: o)
        XCTAssertEqual(batch.json, #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}"#)

        let tools = try r.message(#"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"x"}}"#, options: o)
        XCTAssertFalse(tools.handled)
        XCTAssertEqual(tools.json, "")
        XCTAssertEqual(tools.method, "tools/list")
        XCTAssertEqual(tools.id, "3")
        XCTAssertEqual(tools.withParamsBytes { String(decoding: $0, as: UTF8.self) }, #"{"cursor":"x"}"#)

        let note = try r.message(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, options: o)
        XCTAssertEqual(note.kind, .notification)
        XCTAssertFalse(note.handled)
        XCTAssertEqual(note.id, "")
        let blank = try r.message(" \n", options: o)
        XCTAssertEqual(blank.kind, MessageKind.none)
        XCTAssertTrue(blank.handled)

        // Raw bytes, not UTF-8 inside the params: the params parser's -32602.
        let raw: [UInt8] = Array(#"{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":""#.utf8) + [0xFF] + Array(#""}}"#.utf8)
        let viaBytes = try raw.withUnsafeBytes { try r.message(bytes: $0, options: o) }
        XCTAssertEqual(viaBytes.json, #"{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"params are not valid JSON"}}"#)

        // A listing without a scope key is the host's mistake: it throws.
        XCTAssertEqual(mcprError { try r.message(#"{"jsonrpc":"2.0","id":5,"method":"resources/list"}"#) }?.status,
                       .invalidArgument)
    }
}
