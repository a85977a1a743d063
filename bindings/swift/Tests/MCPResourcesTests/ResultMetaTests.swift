// Host result _meta members merged into every result, and the request's
// trace context seen by callbacks.
import MCPResources
import XCTest

final class ResultMetaTests: XCTestCase {
    let serverInfo = #"{"io.modelcontextprotocol/serverInfo":{"name":"swift","version":"1"}}"#
    let member = #""io.modelcontextprotocol/serverInfo":{"name":"swift","version":"1"}"#

    func testResultMetaIsValidatedOnce() throws {
        XCTAssertEqual(try ResultMeta(json: " " + serverInfo).members, member)
        for bad in ["[]", #"{"a":1,"a":2}"#, #"{"go.phpboyscout.uk/mcp.resourceRead":{}}"#, "{"] {
            XCTAssertEqual(mcprError { try ResultMeta(json: bad) }?.status, .invalidConfiguration, bad)
        }
    }

    func testResultMetaIsMergedIntoEveryResultButNoErrorObject() throws {
        let r = try docsRegistry()
        let meta = try ResultMeta(json: serverInfo)
        let read = try r.read("doc://a", options: ReadOptions(resultMeta: meta))
        XCTAssertTrue(read.json.contains(#""_meta":{"go.phpboyscout.uk/mcp.resourceRead":{"version":1,"#), read.json)
        XCTAssertTrue(read.json.contains(member), read.json)
        let page = try r.list(ListOptions(scopeKey: "t", resultMeta: meta))
        XCTAssertTrue(page.json.contains(#","_meta":{"# + member + "}"), page.json)
        let options = RequestOptions(scopeKey: "t", resultMeta: meta)
        for (method, params) in [("resources/read", #"{"uri":"doc://a"}"#), ("resources/list", "{}"),
                                 ("resources/templates/list", "{}")]
        {
            let resp = try r.request(method: method, params: params, options: options)
            XCTAssertFalse(resp.isError)
            XCTAssertTrue(resp.json.contains(member), "\(method): \(resp.json)")
        }
        let missing = try r.request(method: "resources/read", params: #"{"uri":"doc://missing"}"#, options: options)
        XCTAssertTrue(missing.isError)
        XCTAssertFalse(missing.json.contains("serverInfo"))
    }

    func testCallbacksSeeTheRequestsTraceContext() throws {
        let seen = Recorder<String>()
        let r = try docsRegistry(PolicyFunctions(
            discover: { call, _ in
                seen.append("\(call.traceparent)|\(call.tracestate)|\(call.baggage)")
                return .allow
            },
            visibility: { _, _ in .visible }, read: { _, _ in .allow }))
        let resp = try r.request(
            method: "resources/read",
            params: #"{"uri":"doc://a","_meta":{"traceparent":"00-ab-cd-01","baggage":"k=v","tracestate":[1]}}"#)
        XCTAssertFalse(resp.isError, resp.json)
        _ = try r.read("doc://a")
        XCTAssertEqual(seen.values.first, "00-ab-cd-01||k=v")
        XCTAssertEqual(seen.values.last, "||")
    }
}
