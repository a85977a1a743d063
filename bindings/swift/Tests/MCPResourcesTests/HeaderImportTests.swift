// How Swift imports the C header (docs/C-API.md, "Swift"): nullability,
// one pointer type per handle, statuses and initialisers. Most of this is
// checked by the compiler: each `let` below states a C function's imported
// type, and the suite does not build when the header says otherwise.
import CMCPResources
import XCTest

final class HeaderImportTests: XCTestCase {
    func testFunctionsImportWithTheHeadersNullabilityAndDistinctHandleTypes() {
        // A fallible call: the registry and the out-pointer are non-null,
        // the options and the error out-parameter nullable, the pointee of
        // each out-parameter optional.
        let read: (UnsafePointer<mcpr_resources>, mcpr_str, UnsafePointer<mcpr_read_options>?,
                   UnsafeMutablePointer<UnsafeMutablePointer<mcpr_bundle>?>,
                   UnsafeMutablePointer<UnsafeMutablePointer<mcpr_error>?>?) -> mcpr_status = mcpr_read
        // Accessors and free functions accept NULL (documented "or NULL").
        let json: (UnsafePointer<mcpr_bundle>?) -> mcpr_str = mcpr_bundle_json
        let free: (UnsafeMutablePointer<mcpr_page>?) -> Void = mcpr_page_free
        // Returns: NULL only on an internal failure; never NULL.
        let new: () -> UnsafeMutablePointer<mcpr_builder>? = mcpr_builder_new
        let version: () -> UnsafePointer<CChar> = mcpr_version
        // The status's own integer type.
        let name: (UInt32) -> UnsafePointer<CChar> = mcpr_status_name
        _ = (read, json, free, new, version, name)
        XCTAssertEqual(String(cString: mcpr_status_name(MCPR_INPUT_REQUIRED.rawValue)), "MCPR_INPUT_REQUIRED")
        XCTAssertEqual(String(cString: mcpr_status_name(UInt32(MCPR_STATUS_MAX) + 1)), "MCPR_UNKNOWN_STATUS")
    }

    func testCallbackTypesGiveNonNullViewsAndAnOptionalUserData() {
        // The views and builders a callback gets are never NULL; user_data
        // is whatever the table holds, NULL included.
        let resolve: mcpr_resolve_fn = { (_: UnsafeMutableRawPointer?, _: UnsafePointer<mcpr_call>,
                                          _: UnsafePointer<mcpr_match>,
                                          _: UnsafeMutablePointer<mcpr_plan_builder>) in MCPR_CB_OK }
        let visibility: mcpr_visibility_fn = { (_: UnsafeMutableRawPointer?, _: UnsafePointer<mcpr_call>,
                                                _: UnsafePointer<mcpr_target>,
                                                out: UnsafeMutablePointer<mcpr_visibility>) in
            out.pointee.visible = true
            return MCPR_CB_OK
        }
        // A done callback: the result or the error, each NULL otherwise.
        let done: mcpr_read_done_fn = { (_: UnsafeMutableRawPointer?, _: mcpr_status,
                                         bundle: UnsafeMutablePointer<mcpr_bundle>?,
                                         error: UnsafeMutablePointer<mcpr_error>?) in
            mcpr_bundle_free(bundle)
            mcpr_error_free(error)
        }
        // mcpr_resolve_single is a resolve callback as it is.
        let single: mcpr_resolve_fn = mcpr_resolve_single
        _ = (resolve, visibility, done, single)
    }

    func testTheStructsStartZeroedAndTheirInitFunctionsSetTheirSize() {
        // Every pointer field is nullable, so Swift makes each struct with
        // init(); the *_init functions stand in for the MCPR_*_INIT macros.
        var callbacks = mcpr_binding_callbacks()
        XCTAssertNil(callbacks.resolve)
        XCTAssertNil(callbacks.user_data)
        XCTAssertEqual(callbacks.struct_size, 0)
        mcpr_binding_callbacks_init(&callbacks)
        XCTAssertEqual(callbacks.struct_size, MemoryLayout<mcpr_binding_callbacks>.stride)
        var options = mcpr_embed_options()
        mcpr_embed_options_init(&options)
        XCTAssertEqual(options.struct_size, MemoryLayout<mcpr_embed_options>.stride)
        XCTAssertNil(options.cancel)
        XCTAssertNil(options.executor)
        let s = mcpr_str()
        XCTAssertNil(s.ptr)
    }

    func testHandleTypesAreDistinct() {
        // One Swift type per handle (they all were OpaquePointer).
        let types: [Any.Type] = [
            UnsafeMutablePointer<mcpr_builder>.self, UnsafeMutablePointer<mcpr_resources>.self,
            UnsafeMutablePointer<mcpr_bundle>.self, UnsafeMutablePointer<mcpr_page>.self,
            UnsafeMutablePointer<mcpr_response>.self, UnsafeMutablePointer<mcpr_error>.self,
            UnsafePointer<mcpr_call>.self, UnsafePointer<mcpr_match>.self, UnsafePointer<mcpr_target>.self,
        ]
        XCTAssertEqual(Set(types.map { ObjectIdentifier($0) }).count, types.count)
        XCTAssertFalse(types.contains { $0 == OpaquePointer.self })
    }
}
