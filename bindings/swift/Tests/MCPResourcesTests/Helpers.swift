// Fixtures shared by the wrapper's tests.
import Foundation
import MCPResources
import Synchronization
import XCTest

/// Counts deinits: captured by a callback, it dies exactly when the last
/// copy of the closure does (when the library released the table).
final class Sentinel: Sendable {
    let counter: Counter
    init(_ counter: Counter) { self.counter = counter }
    deinit { counter.add() }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func add(_ n: Int = 1) { value.add(n, ordering: .sequentiallyConsistent) }
    var count: Int { value.load(ordering: .sequentiallyConsistent) }
}

/// A thread-safe flag.
final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .sequentiallyConsistent) }
    var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
}

/// A value guarded by a lock, for what callbacks record.
final class Recorder<T: Sendable>: Sendable {
    private let state: Mutex<[T]> = Mutex([])
    func append(_ v: T) { state.withLock { $0.append(v) } }
    var values: [T] { state.withLock { $0 } }
}

/// Waits (polling) until `cond` holds or `seconds` pass.
func waitUntil(_ seconds: Double, _ cond: () -> Bool) -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while !cond() {
        if Date() > end { return false }
        usleep(2000)
    }
    return true
}

/// The MCPRError a throwing expression throws (fails the test if it throws
/// nothing or something else).
func mcprError<T>(_ body: () throws -> T, file: StaticString = #filePath, line: UInt = #line) -> MCPRError? {
    do {
        _ = try body()
        XCTFail("no error thrown", file: file, line: line)
    } catch let e as MCPRError {
        return e
    } catch {
        XCTFail("not an MCPRError: \(error)", file: file, line: line)
    }
    return nil
}

/// The JSON object of a result's text.
func object(_ json: String, file: StaticString = #filePath, line: UInt = #line) -> [String: Any] {
    guard let o = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
        XCTFail("not a JSON object: \(json)", file: file, line: line)
        return [:]
    }
    return o
}

/// A binding that serves "body of <uri>".
let textBinding = BindingFunctions { _, target, payload in
    try payload.setText("body of \(target.uri)")
}

/// Five documents a..e, a hidden one, and the template note://n/{id}.
func docsRegistry(_ policy: some ResourcePolicy = PolicyFunctions.allowAll) throws -> Resources {
    let b = ResourcesBuilder()
    try b.setPolicy(policy)
    for u in ["doc://e", "doc://a", "doc://c", "doc://b", "doc://d", "doc://hidden"] {
        try b.add(#"{"uri":"\#(u)","name":"n"}"#, binding: textBinding)
    }
    try b.add(#"{"uriTemplate":"note://n/{id}","name":"note"}"#, binding: textBinding)
    return try b.build()
}

/// The texts of a read result's contents.
func texts(_ r: ReadResult) -> [String] {
    ((object(r.json)["contents"] as? [[String: Any]]) ?? []).compactMap { $0["text"] as? String }
}
