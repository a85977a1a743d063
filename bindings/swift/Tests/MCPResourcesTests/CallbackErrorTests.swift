// A Swift error thrown by any callback never reaches the library: it becomes
// a failed callback with its description as the private cause, inline and on
// an executor.
import MCPResources
import XCTest

private struct Boom: Error, CustomStringConvertible {
    let site: String
    var description: String { "SECRET-\(site) exploded" }
}

private enum Where: String, CaseIterable {
    case discover, visibility, policyRead, resolve, bodyRead, complete
}

/// A policy and binding that throw `Boom` at `site` only.
private func registry(throwingAt site: Where) throws -> Resources {
    let policy = PolicyFunctions(
        discover: { _, _ in if site == .discover { throw Boom(site: site.rawValue) }; return .allow },
        visibility: { _, _ in if site == .visibility { throw Boom(site: site.rawValue) }; return .visible },
        read: { _, _ in if site == .policyRead { throw Boom(site: site.rawValue) }; return .allow })
    let binding = BindingFunctions(resolve: { _, m, plan in
        if site == .resolve { throw Boom(site: site.rawValue) }
        try plan.setRequested(uri: m.uri)
        try plan.addItem(uri: m.uri)
    }, complete: { _, _, values in
        if site == .complete { throw Boom(site: site.rawValue) }
        try values.add("v")
    }, read: { _, t, out in
        if site == .bodyRead { throw Boom(site: site.rawValue) }
        try out.setText("body of \(t.uri)")
    })
    let b = ResourcesBuilder()
    try b.setPolicy(policy).add(#"{"uriTemplate":"note://n/{id}","name":"note"}"#, binding: binding)
    return try b.build()
}

final class CallbackErrorTests: XCTestCase {
    func testAThrownErrorInEachCallbackKindFailsTheCallWithItsDescriptionAsThePrivateCause() throws {
        let executor = try CallbackExecutor(threads: 2)
        let expected: [Where: Status] = [.discover: .policy, .visibility: .policy, .policyRead: .policy,
                                         .resolve: .invalidPlan, .bodyRead: .readFailed, .complete: .readFailed]
        for ex in [nil, executor] {
            for site in Where.allCases {
                let r = try registry(throwingAt: site)
                let o = ReadOptions(executor: ex)
                let e: MCPRError?
                if site == .complete {
                    e = mcprError { try r.complete(template: "note://n/{id}", argument: "id", value: "", options: o) }
                } else {
                    e = mcprError { try r.read("note://n/1", options: o) }
                }
                let err = try XCTUnwrap(e, "\(site)")
                XCTAssertEqual(err.status, expected[site], "\(site), executor \(ex != nil)")
                XCTAssertTrue(err.cause.contains("SECRET-\(site.rawValue) exploded"), "\(site): cause \(err.cause)")
                XCTAssertFalse(err.message.contains("SECRET"), "\(site): the safe message leaks")
                XCTAssertFalse(err.jsonrpcJSON.contains("SECRET"), "\(site): the error object leaks")
                XCTAssertEqual(err.jsonrpcCode, -32603)
            }
        }
    }

    func testAThrowingDiscoverFailsAListingAndTheOneCallRequest() throws {
        let r = try registry(throwingAt: .discover)
        let e = try XCTUnwrap(mcprError { try r.listTemplates(ListOptions(scopeKey: "t")) })
        XCTAssertEqual(e.status, .policy)
        XCTAssertTrue(e.cause.contains("SECRET-discover"), e.cause)
        let resp = try r.request(method: "resources/templates/list", params: nil,
                                 options: RequestOptions(scopeKey: "t"))
        XCTAssertTrue(resp.isError)
        XCTAssertEqual(resp.status, .policy)
        XCTAssertTrue(resp.cause.contains("SECRET-discover"), resp.cause)
        XCTAssertFalse(resp.json.contains("SECRET"))
    }

    func testCallbackFailureAnswersUnavailableOrFailedWithItsCause() throws {
        let b = ResourcesBuilder()
        try b.setPolicy(PolicyFunctions(discover: { _, d in
            if d.uri == "doc://denied" { throw CallbackFailure.unavailable }
            if d.uri == "doc://broken" { throw CallbackFailure.failed("SECRET-policy down") }
            return .allow
        }, visibility: { _, _ in .visible }, read: { _, _ in .allow }))
        for u in ["doc://denied", "doc://broken", "doc://fine"] { try b.add(#"{"uri":"\#(u)","name":"n"}"#, binding: textBinding) }
        let r = try b.build()
        XCTAssertEqual(mcprError { try r.read("doc://denied") }?.status, .unavailable)
        let broken = try XCTUnwrap(mcprError { try r.read("doc://broken") })
        XCTAssertEqual(broken.status, .policy)
        XCTAssertTrue(broken.cause.contains("SECRET-policy down"), broken.cause)
        XCTAssertEqual(try texts(r.read("doc://fine")), ["body of doc://fine"])
    }

    func testAnErrorThrownFromARefusedPlanSetterFailsTheResolve() throws {
        let b = ResourcesBuilder()
        try b.setAllowAllPolicy().add(#"{"uri":"doc://p","name":"p"}"#, binding: BindingFunctions(resolve: { _, _, plan in
            try plan.setRequested(uri: "not a uri")
        }, read: { _, _, _ in }))
        let e = try XCTUnwrap(mcprError { try b.build().read("doc://p") })
        XCTAssertEqual(e.status, .invalidPlan)
        XCTAssertTrue(e.cause.contains("MCPR_INVALID_PLAN"), e.cause)
    }
}
