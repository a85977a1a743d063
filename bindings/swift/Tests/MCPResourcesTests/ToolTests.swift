// Resources in tool results: the embedding and the resource tools.
import MCPResources
import XCTest

final class ToolTests: XCTestCase {
    private let hiding = PolicyFunctions(discover: { _, _ in .allow },
                                         visibility: { _, t in t.uri == "doc://hidden" ? .hidden : .visible },
                                         read: { _, _ in .allow })

    func testEmbeddingGivesTheReadsItemsAndNothingForHiddenOrMissingURIs() throws {
        let r = try docsRegistry(hiding)
        let e = try r.embed(["doc://a", "doc://hidden", "doc://missing", "note://n/7"])
        XCTAssertEqual(e.blockCount, 2)
        XCTAssertEqual(e.blocks[0],
                       #"{"type":"resource","resource":{"uri":"doc://a","mimeType":"text/plain","text":"body of doc://a"}}"#)
        XCTAssertEqual(e.uris.map(\.status), [.ok, .unavailable, .unavailable, .ok])
        XCTAssertEqual(e.uris.map(\.blocks), [1, 0, 0, 1])
        XCTAssertEqual(try r.embed(["doc://hidden"]).blocksJSON, try r.embed(["doc://missing"]).blocksJSON)
        XCTAssertEqual(object(e.toolResultJSON)["resultType"] as? String, "complete")
        // links from the registered descriptions, shaped for 2025-06-18
        let l = try r.embed(["doc://b"], options: EmbedOptions(form: .link, protocolRevision: "2025-06-18"))
        XCTAssertEqual(l.toolResultJSON, #"{"content":[{"type":"resource_link","uri":"doc://b","name":"n"}]}"#)
        XCTAssertEqual(l.uris.first?.links, 1)
        XCTAssertEqual(try r.embed([]).blocksJSON, "[]")
        let cancel = CancelToken()
        cancel.cancel()
        XCTAssertEqual(mcprError { try r.embed(["doc://a"], options: EmbedOptions(cancel: cancel)) }?.status, .canceled)
    }

    func testTheResourceToolsAnswerToolOnlyClients() throws {
        let r = try docsRegistry(hiding)
        let defs = try Resources.resourceToolDefinitions(protocolRevision: "2025-11-25")
        XCTAssertTrue(defs.contains(#""name":"read_resource""#) && defs.contains(#""name":"list_resources""#))
        XCTAssertEqual(mcprError { try Resources.resourceToolDefinitions(protocolRevision: "1.0") }?.status,
                       .invalidArgument)
        let o = RequestOptions(scopeKey: "tenant")
        let read = try r.callResourceTool(params: #"{"name":"read_resource","arguments":{"uri":"doc://a"}}"#, options: o)
        XCTAssertFalse(read.isError)
        let sc = object(read.json)["structuredContent"] as? [String: Any]
        XCTAssertEqual(((sc?["contents"] as? [[String: Any]])?.first)?["text"] as? String, "body of doc://a")
        let hidden = try r.callResourceTool(params: #"{"name":"read_resource","arguments":{"uri":"doc://hidden"}}"#,
                                            options: o)
        let missing = try r.callResourceTool(params: #"{"name":"read_resource","arguments":{"uri":"doc://zz"}}"#,
                                             options: o)
        XCTAssertEqual(hidden.json, missing.json)
        XCTAssertEqual(object(hidden.json)["isError"] as? Bool, true)
        let list = try r.callResourceTool(params: #"{"name":"list_resources"}"#, options: o)
        XCTAssertTrue(list.json.contains(#""resourceTemplates":[]"#))
        XCTAssertEqual(mcprError { try r.callResourceTool(params: #"{"name":"other"}"#, options: o) }?.status,
                       .methodNotHandled)
        // Through the one-call request only when asked.
        let call = #"{"name":"read_resource","arguments":{"uri":"doc://a"}}"#
        XCTAssertEqual(mcprError { try r.request(method: "tools/call", params: call, options: o) }?.status,
                       .methodNotHandled)
        let via = try r.request(method: "tools/call", params: call,
                                options: RequestOptions(scopeKey: "tenant", resourceTools: true))
        XCTAssertEqual(via.json, read.json)
    }
}
