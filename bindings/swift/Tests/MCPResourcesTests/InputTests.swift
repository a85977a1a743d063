// Input-required reads (the library's docs/BEHAVIOUR.md §18): a policy
// closure throws CallbackFailure.inputRequired, the retry's callbacks read
// the answers and their own state from the Call, the retry members travel
// in ReadOptions and through Resources.request, a tampered state is one
// refusal, an older revision fails with .inputRequired and the requests.
import Foundation
import MCPResources
import XCTest

private let consentRequest = #"{"method":"elicitation/create","params":{"mode":"form","message":"Read it?","requestedSchema":{"type":"object","properties":{"confirm":{"type":"boolean"}},"required":["confirm"]}}}"#
private let caps = #"{"elicitation":{}}"#
private let accept = #"{"consent":{"action":"accept","content":{"confirm":true}}}"#

/// doc://consent needs consent first; `badKey` makes the request refused.
private func consentRegistry(accepted: Counter, badKey: Bool = false) throws -> Resources {
    let policy = PolicyFunctions(
        discover: { _, _ in .allow },
        visibility: { _, _ in .visible },
        read: { call, target in
            guard target.uri == "doc://consent", call.phase == .firstCheck else { return .allow }
            if call.isInputRetry, call.inputAction("consent") == .accept,
               call.inputContent("consent", field: "confirm") == "true", call.inputState == Array("own".utf8)
            {
                accepted.add()
                return .allow
            }
            throw CallbackFailure.inputRequired(InputRequired(
                [InputRequest(key: badKey ? "bad key!" : "consent", json: consentRequest)], state: Array("own".utf8)))
        })
    let b = ResourcesBuilder()
    try b.setPolicy(policy)
    try b.add(#"{"uri":"doc://consent","name":"c"}"#, binding: textBinding)
    try b.add(#"{"uri":"doc://plain","name":"p"}"#, binding: textBinding)
    return try b.build()
}

private func state(_ json: String) -> String {
    (object(json)["requestState"] as? String) ?? ""
}

final class InputTests: XCTestCase {
    func testAPolicyAsksAndTheRetryReadsWithTheResponses() throws {
        let accepted = Counter()
        let r = try consentRegistry(accepted: accepted)
        var o = ReadOptions()
        o.scopeKey = "principal:alice"
        o.clientCapabilities = caps
        let asked = try r.read("doc://consent", options: o)
        XCTAssertTrue(asked.isInputRequired)
        XCTAssertEqual(object(asked.json)["resultType"] as? String, "input_required")
        XCTAssertNil(object(asked.json)["ttlMs"])
        let s = state(asked.json)
        XCTAssertFalse(s.isEmpty)
        o.requestState = s
        o.inputResponses = accept
        let read = try r.read("doc://consent", options: o)
        XCTAssertFalse(read.isInputRequired)
        XCTAssertEqual(texts(read), ["body of doc://consent"])
        XCTAssertGreaterThan(accepted.count, 0)
        // A tampered state: one refusal for every URI.
        var bytes = Array(s.utf8)
        bytes[bytes.count / 2] = bytes[bytes.count / 2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        o.requestState = String(decoding: bytes, as: UTF8.self)
        for uri in ["doc://consent", "doc://plain", "doc://nowhere"] {
            let e = mcprError { try r.read(uri, options: o) }
            XCTAssertEqual(e?.status, .invalidRequest, uri)
            XCTAssertEqual(e?.jsonrpcJSON, #"{"code":-32602,"message":"Invalid request state"}"#, uri)
        }
    }

    func testTheOneCallRequestTakesTheRetryFromTheParams() throws {
        let r = try consentRegistry(accepted: Counter())
        var o = RequestOptions(scopeKey: "principal:alice")
        o.clientCapabilities = caps
        let asked = try r.request(method: "resources/read", params: #"{"uri":"doc://consent"}"#, options: o)
        XCTAssertTrue(asked.isInputRequired)
        let params = #"{"uri":"doc://consent","requestState":"\#(state(asked.json))","inputResponses":\#(accept)}"#
        let read = try r.request(method: "resources/read", params: params, options: o)
        XCTAssertFalse(read.isInputRequired)
        XCTAssertTrue(read.json.contains("body of doc://consent"))
        o.clientCapabilities = "{}"
        let missing = try r.request(method: "resources/read", params: #"{"uri":"doc://consent"}"#, options: o)
        XCTAssertTrue(missing.isError)
        XCTAssertEqual(missing.status, .inputRequired)
        XCTAssertTrue(missing.json.contains(#""code":-32021"#))
    }

    func testAnOlderRevisionFailsWithTheHostsErrorAndARefusedRequestFailsTheCallback() throws {
        let r = try consentRegistry(accepted: Counter())
        var o = ReadOptions(protocolRevision: "2025-11-25")
        o.scopeKey = "principal:alice"
        let e = mcprError { try r.read("doc://consent", options: o) }
        XCTAssertEqual(e?.status, .inputRequired)
        XCTAssertEqual(e?.jsonrpcCode, -32603)
        XCTAssertTrue(e?.inputRequests.contains(#""consent":{"method":"elicitation/create""#) ?? false)
        XCTAssertEqual(mcprError { try ResourcesBuilder().setInputUnsupportedError(code: -32021, message: "x") }?.status,
                       .invalidConfiguration)

        let bad = try consentRegistry(accepted: Counter(), badKey: true)
        var b = ReadOptions()
        b.scopeKey = "principal:alice"
        b.clientCapabilities = caps
        let f = mcprError { try bad.read("doc://consent", options: b) }
        XCTAssertEqual(f?.status, .policy)
        XCTAssertTrue(f?.cause.contains("bad key!") ?? false)
    }
}
