// mcpr-swift-bench: the small exact read (W1 of c-tests/bench_read.c:
// 1,000 exact resources registered, one read of a 1 KiB text item, a
// trivial policy and reader) through the Swift wrapper, in ns/read, best of
// 20 short rounds as bench_read does:
//   raw C ABI from Swift    mcpr_read with @convention(c) callbacks written
//                           in Swift (this process's own C ABI baseline)
//   wrapper, Swift policy   PolicyFunctions and a closure reader (ten policy
//                           questions and one body read cross into Swift)
//   wrapper, allow-all      the library's native policy, a closure reader
//   wrapper, request        the same through Resources.request + json
//   wrapper, executor       allow-all on a 2-worker executor, blocking
//   wrapper, async          the same through read(_:on:) (mcpr_read_start),
//                           one await in flight
// Each figure is also printed as a multiple of the C ABI figure that
// MCPR_C_INLINE_NS gives (bench_read's inline figure, measured by
// scripts/swift-test.sh bench on the host) and of the raw figure.
// Printed, never asserted. Usage: mcpr-swift-bench [iterations]
import CMCPResources
import Foundation
import MCPResources

let iterations = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 200_000 : 200_000
let rounds = 20
let body = String(repeating: "x", count: 1024)
let uri = "bench://small/item"

func nowNs() -> Double { Double(DispatchTime.now().uptimeNanoseconds) }

/// `bestOf` for an async call.
func bestOfAsync(_ call: () async throws -> Void) async rethrows -> Double {
    let n = iterations / rounds + 1
    for _ in 0..<(iterations / 10 + 1) { try await call() }
    var best = Double.infinity
    for _ in 0..<rounds {
        let t0 = nowNs()
        for _ in 0..<n { try await call() }
        best = min(best, (nowNs() - t0) / Double(n))
    }
    return best
}

/// Best of `rounds` rounds of `iterations / rounds` calls, after a warm-up.
func bestOf(_ call: () throws -> Void) rethrows -> Double {
    let n = iterations / rounds + 1
    for _ in 0..<(iterations / 10 + 1) { try call() }
    var best = Double.infinity
    for _ in 0..<rounds {
        let t0 = nowNs()
        for _ in 0..<n { try call() }
        best = min(best, (nowNs() - t0) / Double(n))
    }
    return best
}

func definitions() -> [String] {
    [#"{"uri":"\#(uri)","name":"item"}"#] + (1..<1000).map { #"{"uri":"bench://small/other-\#($0)","name":"other-\#($0)"}"# }
}

func wrapperRegistry(swiftPolicy: Bool) throws -> Resources {
    let b = ResourcesBuilder()
    if swiftPolicy {
        try b.setPolicy(PolicyFunctions(discover: { _, _ in .allow }, visibility: { _, _ in .visible },
                                        read: { _, _ in .allow }))
    } else {
        try b.setAllowAllPolicy()
    }
    for d in definitions() { try b.add(d) { _, _, out in try out.setText(body) } }
    return try b.build()
}

// ---- the raw C ABI, callbacks in Swift
let cBody = Array(body.utf8)
func cDiscover(_: UnsafeMutableRawPointer?, _: OpaquePointer?, _: OpaquePointer?) -> mcpr_cb_result { MCPR_CB_OK }
func cVisibility(_: UnsafeMutableRawPointer?, _: OpaquePointer?, _: OpaquePointer?,
                 _ out: UnsafeMutablePointer<mcpr_visibility>?) -> mcpr_cb_result
{
    out?.pointee.visible = true
    return MCPR_CB_OK
}
func cRead(_: UnsafeMutableRawPointer?, _: OpaquePointer?, _: OpaquePointer?) -> mcpr_cb_result { MCPR_CB_OK }
func cBodyRead(_: UnsafeMutableRawPointer?, _: OpaquePointer?, _: OpaquePointer?, _ out: OpaquePointer?) -> mcpr_cb_result {
    cBody.withUnsafeBufferPointer { b in
        "text/plain".withCString { m in
            mcpr_payload_set_text(out, mcpr_str(ptr: m, len: 10),
                                  mcpr_str(ptr: UnsafeRawPointer(b.baseAddress)?.assumingMemoryBound(to: CChar.self), len: b.count),
                                  nil) == MCPR_OK ? MCPR_CB_OK : MCPR_CB_FAILED
        }
    }
}

func rawRegistry() -> OpaquePointer? {
    var policy = mcpr_policy_callbacks()
    policy.struct_size = MemoryLayout<mcpr_policy_callbacks>.stride
    policy.discover = cDiscover
    policy.visibility = cVisibility
    policy.read = cRead
    var binding = mcpr_binding_callbacks()
    binding.struct_size = MemoryLayout<mcpr_binding_callbacks>.stride
    binding.resolve = mcpr_resolve_single
    binding.read = cBodyRead
    let b = mcpr_builder_new()
    guard mcpr_builder_set_policy(b, &policy, nil) == MCPR_OK else { return nil }
    for d in definitions() {
        var d = d
        let ok = d.withUTF8 { u in
            mcpr_builder_add(b, mcpr_str(ptr: UnsafeRawPointer(u.baseAddress)?.assumingMemoryBound(to: CChar.self), len: u.count),
                             &binding, nil) == MCPR_OK
        }
        guard ok else { return nil }
    }
    var r: OpaquePointer? = nil
    return mcpr_builder_build(b, &r, nil) == MCPR_OK ? r : nil
}

guard let raw = rawRegistry() else { fatalError("raw registry") }
var opt = mcpr_read_options()
opt.struct_size = MemoryLayout<mcpr_read_options>.stride
var cUri = Array(uri.utf8)
let rawNs = cUri.withUnsafeBufferPointer { u in
    let s = mcpr_str(ptr: UnsafeRawPointer(u.baseAddress)?.assumingMemoryBound(to: CChar.self), len: u.count)
    return bestOf {
        var out: OpaquePointer? = nil
        guard mcpr_read(raw, s, &opt, &out, nil) == MCPR_OK else { fatalError("raw read failed") }
        mcpr_bundle_free(out)
    }
}
mcpr_resources_free(raw)

let swiftPolicy = try wrapperRegistry(swiftPolicy: true)
let allowAll = try wrapperRegistry(swiftPolicy: false)
let swiftPolicyNs = try bestOf { _ = try swiftPolicy.read(uri) }
let allowAllNs = try bestOf { _ = try allowAll.read(uri) }
let params = #"{"uri":"\#(uri)"}"#
let requestNs = try bestOf { _ = try allowAll.request(method: "resources/read", params: params).json }
let executor = try CallbackExecutor(threads: 2)
let onExecutor = ReadOptions(executor: executor)
let executorNs = try bestOf { _ = try allowAll.read(uri, options: onExecutor) }
let asyncNs = try await bestOfAsync { _ = try await allowAll.read(uri, on: executor) }

let cNs = Double(ProcessInfo.processInfo.environment["MCPR_C_INLINE_NS"] ?? "") ?? 0
func row(_ label: String, _ ns: Double) {
    let name = "swift/small_exact_read/" + label
    var line = name.padding(toLength: 50, withPad: " ", startingAt: 0)
    line += String(format: " %8.0f ns/read  %5.2fx raw", ns, ns / rawNs)
    if cNs > 0 { line += String(format: "  %5.2fx C ABI (bench_read inline, %.0f ns)", ns / cNs, cNs) }
    print(line)
}
row("raw_c_abi_from_swift", rawNs)
row("wrapper_swift_policy", swiftPolicyNs)
row("wrapper_native_allow_all", allowAllNs)
row("wrapper_request_json", requestNs)
row("wrapper_executor_blocking", executorNs)
row("wrapper_executor_async", asyncNs)
print(String(format: "swift/small_exact_read/async_over_blocking_executor %.2fx", asyncNs / executorNs))
