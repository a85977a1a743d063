// Statuses, errors and the struct sizes the wrapper sets.
import CMCPResources
import MCPResources
import XCTest

final class ErrorsTests: XCTestCase {
    func testStatusNamesAreTheEnumeratorNamesAndUnknownValuesAreNamedSo() {
        XCTAssertEqual(Status.ok.name, "MCPR_OK")
        XCTAssertEqual(Status.unavailable.name, "MCPR_UNAVAILABLE")
        XCTAssertEqual(Status.methodNotHandled.name, "MCPR_METHOD_NOT_HANDLED")
        XCTAssertEqual(Status(rawValue: 999).name, "MCPR_UNKNOWN_STATUS")
        // above Int32.max: mcpr_status_name takes an int32_t; no trap
        XCTAssertEqual(Status(rawValue: UInt32.max).name, "MCPR_UNKNOWN_STATUS")
        XCTAssertEqual(Status.inputRequired.name, "MCPR_INPUT_REQUIRED")
        XCTAssertEqual(Status(rawValue: UInt32(MCPR_STATUS_MAX)).name, "MCPR_INPUT_REQUIRED")
        XCTAssertEqual("\(Status.canceled)", "MCPR_CANCELED")
    }

    func testNotFoundCarriesStatusSafeMessageCodeAndTheErrorObjectOfTheRevision() throws {
        let r = try docsRegistry()
        for (rev, code) in [("2025-11-25", Int32(-32002)), ("2026-07-28", Int32(-32602)), ("", Int32(-32602))] {
            let e = try XCTUnwrap(mcprError { try r.read("doc://missing", options: ReadOptions(protocolRevision: rev)) })
            XCTAssertEqual(e.status, .unavailable)
            XCTAssertEqual(e.jsonrpcCode, code)
            XCTAssertEqual(e.message, "resource unavailable")
            XCTAssertEqual("\(e)", e.message, "description is the safe message only")
            let o = object(e.jsonrpcJSON)
            XCTAssertEqual(o["message"] as? String, "Resource not found")
            XCTAssertEqual(o["code"] as? Int, Int(code))
            XCTAssertEqual((o["data"] as? [String: Any])?["uri"] as? String, "doc://missing")
            XCTAssertFalse(e.cause.isEmpty, "the private cause says why")
        }
    }

    func testHiddenAndUnregisteredAreTheSameBytes() throws {
        let r = try docsRegistry(PolicyFunctions(discover: { _, d in d.uri == "doc://hidden" ? .deny : .allow },
                                                 visibility: { _, _ in .visible }, read: { _, _ in .allow }))
        let hidden = try XCTUnwrap(mcprError { try r.read("doc://hidden") })
        let missing = try XCTUnwrap(mcprError { try r.read("doc://hidden2") })
        XCTAssertEqual(hidden.jsonrpcJSON.replacingOccurrences(of: "doc://hidden", with: "U"),
                       missing.jsonrpcJSON.replacingOccurrences(of: "doc://hidden2", with: "U"))
        XCTAssertEqual(hidden.message, missing.message)
        XCTAssertEqual(hidden.status, missing.status)
    }

    func testABadRequestIsInvalidRequestWithMinus32602() throws {
        let e = try XCTUnwrap(mcprError { try docsRegistry().read("not a uri") })
        XCTAssertEqual(e.status, .invalidRequest)
        XCTAssertEqual(e.jsonrpcCode, -32602)
    }

    func testAnUnknownRevisionAndANegativeTimeoutAreInvalidArgument() throws {
        let r = try docsRegistry()
        XCTAssertEqual(mcprError { try r.read("doc://a", options: ReadOptions(protocolRevision: "1999-01-01")) }?.status,
                       .invalidArgument)
        XCTAssertEqual(mcprError { try r.read("doc://a", options: ReadOptions(timeout: .milliseconds(-1))) }?.status,
                       .invalidArgument)
        XCTAssertEqual(mcprError { try r.list(ListOptions(scopeKey: "t", timeout: .seconds(-3))) }?.status,
                       .invalidArgument)
        // a positive timeout below a millisecond is 1 ms, not "none"
        XCTAssertNoThrow(try r.read("doc://a", options: ReadOptions(timeout: .microseconds(10))))
    }

    func testNoHostSideErrorReachesAClientAsCodeZeroOrWithItsOwnText() throws {
        let internalError = #"{"code":-32603,"message":"internal error"}"#
        let r = try docsRegistry()
        // raised by the wrapper itself (no mcpr_error behind it)
        let wrapper = try XCTUnwrap(mcprError { try r.read("doc://a", options: ReadOptions(timeout: .milliseconds(-1))) })
        XCTAssertEqual(wrapper.jsonrpcCode, -32603)
        XCTAssertEqual(wrapper.jsonrpcJSON, internalError)
        // a host mistake the library reports: its fixed object
        let noScope = try XCTUnwrap(mcprError { try r.list(ListOptions(scopeKey: "")) })
        XCTAssertEqual(noScope.jsonrpcCode, -32603)
        XCTAssertEqual(noScope.jsonrpcJSON, internalError)
        // built from parts: code 0 and an empty object are never kept
        let zero = MCPRError(status: .`internal`, message: "disk on fire at /srv/x", jsonrpcCode: 0)
        XCTAssertEqual(zero.jsonrpcCode, -32603)
        XCTAssertEqual(zero.jsonrpcJSON, internalError)
        let unhandled = MCPRError(status: .methodNotHandled, message: "x", jsonrpcCode: -32601)
        XCTAssertEqual(unhandled.jsonrpcJSON, #"{"code":-32601,"message":"Method not found"}"#)
    }

    // The C INIT macros do not import into Swift; the wrapper sets
    // struct_size to the stride of the struct as it was compiled, which
    // must be the C sizeof the library's init functions write.
    func testTheStructSizesTheWrapperSetsAreTheCSizes() {
        var r = mcpr_read_options()
        mcpr_read_options_init(&r)
        XCTAssertEqual(r.struct_size, MemoryLayout<mcpr_read_options>.stride)
        var l = mcpr_list_options()
        mcpr_list_options_init(&l)
        XCTAssertEqual(l.struct_size, MemoryLayout<mcpr_list_options>.stride)
        var q = mcpr_request_options()
        mcpr_request_options_init(&q)
        XCTAssertEqual(q.struct_size, MemoryLayout<mcpr_request_options>.stride)
        var e = mcpr_executor_options()
        mcpr_executor_options_init(&e)
        XCTAssertEqual(e.struct_size, MemoryLayout<mcpr_executor_options>.stride)
        var b = mcpr_binding_callbacks()
        mcpr_binding_callbacks_init(&b)
        XCTAssertEqual(b.struct_size, MemoryLayout<mcpr_binding_callbacks>.stride)
        var h = mcpr_cache_hints()
        mcpr_cache_hints_init(&h)
        XCTAssertEqual(h.struct_size, MemoryLayout<mcpr_cache_hints>.stride)
        var p = mcpr_policy_callbacks()
        mcpr_policy_callbacks_init(&p)
        XCTAssertEqual(p.struct_size, MemoryLayout<mcpr_policy_callbacks>.stride)
        // a zero struct, as Swift's init() makes it, is refused: the reason
        // the wrapper never passes one
        var zero = mcpr_read_options()
        var out: OpaquePointer? = nil
        let s = withUnsafeMutablePointer(to: &zero) { z in
            "doc://a".withCString { mcpr_read(nil, mcpr_str(ptr: $0, len: 7), z, &out, nil) }
        }
        XCTAssertEqual(s, MCPR_INVALID_ARGUMENT)
    }

    func testTheVersionIsTheLibrarys() {
        XCTAssertEqual(String(cString: mcpr_version()), "0.1.0")
        XCTAssertEqual(libraryVersion, "\(MCPR_VERSION_MAJOR).\(MCPR_VERSION_MINOR).\(MCPR_VERSION_PATCH)")
    }
}
