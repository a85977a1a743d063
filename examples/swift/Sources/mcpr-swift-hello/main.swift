import Foundation
import MCPResources

let b = ResourcesBuilder()
try b.setAllowAllPolicy()
try b.add(#"{"uri":"doc://hello","name":"hello"}"#) { _, _, out in try out.setText("hello") }
let resources = try b.build()
let options = RequestOptions(protocolRevision: "2025-11-25", scopeKey: "stdio")
while let line = readLine() {
    guard let msg = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
          let method = msg["method"] as? String, let id = msg["id"] else { continue }  // notifications
    let idJSON = String(decoding: try JSONSerialization.data(withJSONObject: id, options: .fragmentsAllowed), as: UTF8.self)
    let params = try msg["params"].map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
    var (key, reply) = ("error", #"{"code":-32601,"message":"Method not found"}"#)
    if method == "initialize" {
        (key, reply) = ("result", #"{"protocolVersion":"2025-11-25","capabilities":{"resources":{}},"serverInfo":{"name":"hello","version":"1.0.0"}}"#)
    } else if let r = try? resources.request(method: method, params: params, options: options) {
        (key, reply) = (r.isError ? "error" : "result", r.json)  // the library's result or error object
    }
    print(#"{"jsonrpc":"2.0","id":\#(idJSON),"\#(key)":\#(reply)}"#)
    fflush(nil)  // stdout is a pipe: send each line now
}
