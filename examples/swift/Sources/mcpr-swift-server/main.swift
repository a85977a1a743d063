// mcpr-swift-server: a small MCP server on stdio (newline-delimited
// JSON-RPC). Each library request (resources/*, completion/complete) goes to
// Resources.request with the raw text of its params and runs on a worker
// thread, cancellable by notifications/cancelled; the session itself
// (initialize, server/discover, ping) is answered here. Resources and policy
// are in Registry.swift.
import Dispatch
import Foundation
import MCPResources
import Synchronization

let legacyRevisions = ["2025-06-18", "2025-11-25"]
let allRevisions = legacyRevisions + ["2026-07-28"]
let serverInfo = #"{"name":"mcpr-swift-example","version":"0.1.0"}"#

let stats = Stats()
let resources = try buildRegistry(stats: stats)
let executor = try CallbackExecutor(threads: 2)
let capabilities = resources.completes ? #"{"resources":{},"completions":{}}"# : #"{"resources":{}}"#

/// The revision `initialize` negotiated (empty until then: the newest; a
/// 2026-07-28 client names its revision in every request's _meta).
let negotiated = Mutex("")
/// Requests in flight by the raw text of their id, for notifications/cancelled.
let inFlight = Mutex([String: CancelToken]())
let output = Mutex(FileHandle.standardOutput)

func send(_ line: String) {
    output.withLock { $0.write(Data((line + "\n").utf8)) }
}

func respond(_ id: String, result: String) {
    send(#"{"jsonrpc":"2.0","id":\#(id),"result":\#(result)}"#)
}

func respond(_ id: String, error: String) {
    send(#"{"jsonrpc":"2.0","id":\#(id),"error":\#(error)}"#)
}

func errorObject(_ code: Int, _ message: String) -> String {
    #"{"code":\#(code),"message":"\#(message)"}"#
}

/// The protocol version a 2026-07-28 request names in params._meta.
func requestedVersion(_ params: Any?) -> String? {
    ((params as? [String: Any])?["_meta"] as? [String: Any])?["io.modelcontextprotocol/protocolVersion"] as? String
}

/// Serves one library request on a worker.
func serveLibrary(method: String, id: String, params: ArraySlice<UInt8>?) {
    let token = CancelToken()
    inFlight.withLock { $0[id] = token }
    let revision = negotiated.withLock { $0 }
    DispatchQueue.global().async {
        defer { _ = inFlight.withLock { $0.removeValue(forKey: id) } }
        let options = RequestOptions(protocolRevision: revision, scopeKey: "stdio-session", timeout: .seconds(60),
                                     cancel: token, executor: executor)
        do {
            let response = try params.map { p in
                try Array(p).withUnsafeBytes { try resources.request(method: method, paramsBytes: $0, options: options) }
            } ?? resources.request(method: method, paramsBytes: nil, options: options)
            if response.isError, response.status == .canceled { return }  // MCP: no response to a cancelled request
            if response.isError {
                FileHandle.standardError.write(Data("\(method): \(response.status): \(response.cause)\n".utf8))
                respond(id, error: response.json)
            } else {
                respond(id, result: response.json)
            }
        } catch let e as MCPRError {
            if e.status == .canceled { return }
            respond(id, error: e.jsonrpcJSON.isEmpty ? errorObject(Int(e.jsonrpcCode), e.message) : e.jsonrpcJSON)
        } catch {
            respond(id, error: errorObject(-32603, "Internal error"))
        }
    }
}

/// Answers the session's own methods; false for the library's.
func serveSession(method: String, id: String, params: Any?) -> Bool {
    switch method {
    case "initialize":
        let asked = (params as? [String: Any])?["protocolVersion"] as? String ?? ""
        let version = legacyRevisions.contains(asked) ? asked : legacyRevisions.last!
        negotiated.withLock { $0 = version }
        respond(id, result: #"{"protocolVersion":"\#(version)","capabilities":\#(capabilities),"serverInfo":\#(serverInfo)}"#)
    case "server/discover":
        if let asked = requestedVersion(params), !allRevisions.contains(asked) {
            let supported = allRevisions.map { "\"\($0)\"" }.joined(separator: ",")
            respond(id, error: #"{"code":-32022,"message":"Unsupported protocol version","data":{"supported":[\#(supported)],"requested":"\#(asked)"}}"#)
            return true
        }
        let versions = allRevisions.map { "\"\($0)\"" }.joined(separator: ",")
        respond(id, result: #"{"supportedVersions":[\#(versions)],"capabilities":\#(capabilities),"# +
            #""_meta":{"io.modelcontextprotocol/serverInfo":\#(serverInfo)},"resultType":"complete","ttlMs":0,"cacheScope":"public"}"#)
    case "ping":
        respond(id, result: requestedVersion(params) == nil ? "{}" : #"{"resultType":"complete"}"#)
    default:
        return false
    }
    return true
}

func handle(_ line: String) {
    let bytes = Array(line.utf8)
    guard let message = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
        return respond("null", error: errorObject(-32700, "Parse error"))
    }
    let raw = RawJSON.members(bytes)
    guard let method = message["method"] as? String else { return }  // a response to us: none expected
    guard let idRange = raw["id"] else {  // a notification
        if method == "notifications/cancelled",
           let p = raw["params"].map({ Array(bytes[$0]) }), let r = RawJSON.members(p)["requestId"]
        {
            let id = String(decoding: p[r], as: UTF8.self)
            inFlight.withLock { $0[id] }?.cancel()
        }
        return
    }
    let id = String(decoding: bytes[idRange], as: UTF8.self)
    if serveSession(method: method, id: id, params: message["params"]) { return }
    if method.hasPrefix("resources/") || method == "completion/complete" {
        return serveLibrary(method: method, id: id, params: raw["params"].map { bytes[$0] })
    }
    respond(id, error: errorObject(-32601, "Method not found"))
}

while let line = readLine(strippingNewline: true) {
    if !line.isEmpty { handle(line) }
}
// stdin closed: let the requests in flight answer, then exit
while !inFlight.withLock({ $0.isEmpty }) { usleep(10_000) }
