// The plan-level policy entry (mcpr_policy_callbacks.decide_plan, which the
// wrapper registers for every Swift policy): the policy's own methods are
// asked exactly what the per-item callbacks would be asked, and their
// answers keep their meaning (denial, hidden = not found, failure, input
// only in the first check).
import MCPResources
import XCTest

/// Counts its calls; hides, denies, fails or asks by URI.
private final class CountingPolicy: ResourcePolicy, Sendable {
    let discovers = Counter(), visibilities = Counter(), reads = Counter()
    let hidden: String?, denied: String?, failing: String?

    init(hidden: String? = nil, denied: String? = nil, failing: String? = nil) {
        self.hidden = hidden
        self.denied = denied
        self.failing = failing
    }

    func discover(_ call: Call, _ definition: Definition) throws -> Access {
        discovers.add()
        return .allow
    }

    func visibility(_ call: Call, _ target: Target) throws -> Visibility {
        visibilities.add()
        if target.uri == failing { throw CallbackFailure.failed("SECRET visibility cause") }
        return Visibility(visible: target.uri != hidden, discloseIssueURI: true)
    }

    func read(_ call: Call, _ target: Target) throws -> Access {
        reads.add()
        return target.uri == denied ? .deny : .allow
    }
}

final class PlanPolicyTests: XCTestCase {
    func testASwiftPolicyIsAskedWhatThePerItemCallbacksWouldBeAsked() throws {
        let p = CountingPolicy()
        let r = try docsRegistry(p)
        XCTAssertEqual(texts(try r.read("doc://a")), ["body of doc://a"])
        // discover twice; visibility and read four times each (the
        // requested target and the item, before the body read and in the
        // recheck), in two calls from the library.
        XCTAssertEqual([p.discovers.count, p.visibilities.count, p.reads.count], [2, 4, 4])
    }

    func testHiddenAndDeniedAnswerLikeNotFoundAndAFailureIsAPolicyFailure() throws {
        let notFound = try XCTUnwrap(mcprError { try docsRegistry(CountingPolicy()).read("doc://none") })
        for p in [CountingPolicy(hidden: "doc://a"), CountingPolicy(denied: "doc://a")] {
            let e = try XCTUnwrap(mcprError { try docsRegistry(p).read("doc://a") })
            XCTAssertEqual(e.status, notFound.status)
            XCTAssertEqual(e.message, notFound.message)
            XCTAssertEqual(e.jsonrpcCode, notFound.jsonrpcCode)
        }
        let e = try XCTUnwrap(mcprError { try docsRegistry(CountingPolicy(failing: "doc://a")).read("doc://a") })
        XCTAssertEqual(e.status, .policy)
        XCTAssertFalse(e.message.contains("SECRET"))
        XCTAssertTrue(e.cause.contains("SECRET visibility cause"))
    }
}
