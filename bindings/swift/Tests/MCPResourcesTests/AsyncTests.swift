// Asynchronous calls (`async` functions on the C start entry points):
// no thread waits per call in flight, Task cancellation cancels the call,
// deadlines hold while callbacks hang, the outcome is the blocking call's.
import Foundation
import MCPResources
import XCTest

/// Polls `cond` every 2 ms without holding a thread, for at most `seconds`.
func eventually(_ seconds: Double, _ cond: () throws -> Bool) async rethrows -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while try !cond() {
        if Date() > end { return false }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return true
}

/// The MCPRError an async expression throws (fails the test otherwise).
func asyncError<T>(_ body: () async throws -> T, file: StaticString = #filePath, line: UInt = #line) async
    -> MCPRError?
{
    do {
        _ = try await body()
        XCTFail("no error thrown", file: file, line: line)
    } catch let e as MCPRError {
        return e
    } catch {
        XCTFail("not an MCPRError: \(error)", file: file, line: line)
    }
    return nil
}

/// A registry whose `doc://hang` reader runs until `open` is set,
/// ignoring cancellation, counting the readers that entered.
func hangingRegistry(open: Flag, entered: Counter, dead: Counter? = nil) throws -> Resources {
    let b = ResourcesBuilder()
    let sentinel = dead.map(Sentinel.init)
    try b.setAllowAllPolicy().add(#"{"uri":"doc://hang","name":"h"}"#) { _, _, out in
        _ = sentinel
        entered.add()
        while !open.isSet { usleep(2000) }
        try out.setText("late")
    }
    try b.add(#"{"uri":"doc://quick","name":"q"}"#, binding: textBinding)
    return try b.build()
}

/// A page's JSON without its `nextCursor` member.
func withoutCursor(_ json: String) -> String {
    json.replacingOccurrences(of: #","nextCursor":"[^"]*""#, with: "", options: .regularExpression)
}

final class AsyncTests: XCTestCase {
    func testManyConcurrentAwaitsOnASmallExecutorHoldNoThreadWhileTheReaderHangs() async throws {
        let open = Flag(), entered = Counter(), awaiting = Counter()
        let r = try hangingRegistry(open: open, entered: entered)
        let executor = try CallbackExecutor(threads: 2)
        let calls = 64
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<calls {
                group.addTask {
                    awaiting.add()
                    return texts(try await r.read("doc://hang", on: executor)).joined()
                }
            }
            // Every task reached its await although no reader returned: an
            // await that blocked its thread would have stopped the
            // cooperative pool (as wide as the cores) after a few.
            let allAwaiting = await eventually(20) { awaiting.count == calls }
            XCTAssertTrue(allAwaiting, "\(awaiting.count) of \(calls) tasks awaiting")
            // The library holds every call: two readers on the two workers,
            // the others queued.
            let queued = try await eventually(20) { try executor.stats().queued == UInt64(calls - 2) }
            let stats = try executor.stats()
            XCTAssertTrue(queued, "queued \(stats.queued)")
            XCTAssertEqual(entered.count, 2)
            open.set()
            var done = 0
            for try await text in group {
                XCTAssertEqual(text, "late")
                done += 1
            }
            XCTAssertEqual(done, calls)
        }
        XCTAssertEqual(entered.count, calls)
    }

    func testCancellingTheTaskCancelsAnAsyncReadWhileTheReaderIgnoresItAndReleaseRunsOnce() async throws {
        let open = Flag(), entered = Counter(), dead = Counter()
        do {
            let r = try hangingRegistry(open: open, entered: entered, dead: dead)
            let executor = try CallbackExecutor(threads: 2)
            let t0 = Date()
            let task = Task { try await r.read("doc://hang", on: executor, options: ReadOptions(timeout: .seconds(60))) }
            let inReader = await eventually(20) { entered.count == 1 }
            XCTAssertTrue(inReader)
            task.cancel()
            let e = await asyncError { try await task.value }
            XCTAssertEqual(e?.status, .canceled)
            // Concluded by the cancellation, long before the deadline.
            XCTAssertLessThan(Date().timeIntervalSince(t0), 30)
        }
        // The registry and executor are gone; the reader still runs.
        XCTAssertEqual(dead.count, 0)
        open.set()
        let released = await eventually(20) { dead.count == 1 }
        XCTAssertTrue(released)
        try await Task.sleep(for: .milliseconds(50))
        XCTAssertEqual(dead.count, 1)
    }

    func testATaskCancelledBeforeTheStartConcludesAsCanceledWithoutACallback() async throws {
        let open = Flag(), entered = Counter()
        defer { open.set() }
        let r = try hangingRegistry(open: open, entered: entered)
        let executor = try CallbackExecutor(threads: 2)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await r.read("doc://hang", on: executor)
        }
        let e = await asyncError { try await task.value }
        XCTAssertEqual(e?.status, .canceled)
        XCTAssertEqual(entered.count, 0)
    }

    func testCancellingTheTaskCancelsTheTokenGivenInTheOptions() async throws {
        let open = Flag(), entered = Counter()
        defer { open.set() }
        let r = try hangingRegistry(open: open, entered: entered)
        let executor = try CallbackExecutor(threads: 2)
        let token = CancelToken()
        let task = Task { try await r.read("doc://hang", on: executor, options: ReadOptions(cancel: token)) }
        let inReader = await eventually(20) { entered.count == 1 }
        XCTAssertTrue(inReader)
        XCTAssertFalse(token.isCanceled)
        task.cancel()
        let e = await asyncError { try await task.value }
        XCTAssertEqual(e?.status, .canceled)
        XCTAssertTrue(token.isCanceled)
    }

    func testDeadlinesHoldForRunningAndQueuedAsyncCallsWhileReadersHang() async throws {
        let open = Flag(), entered = Counter()
        defer { open.set() }
        let r = try hangingRegistry(open: open, entered: entered)
        let executor = try CallbackExecutor(ExecutorOptions(threads: 2, maxHung: 64))
        let statuses = try await withThrowingTaskGroup(of: Status.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    do {
                        _ = try await r.read("doc://hang", on: executor,
                                             options: ReadOptions(timeout: .milliseconds(200)))
                        return .ok
                    } catch let e as MCPRError {
                        return e.status
                    }
                }
            }
            var all: [Status] = []
            for try await s in group { all.append(s) }
            return all
        }
        XCTAssertEqual(statuses.count, 16)
        for s in statuses {
            XCTAssertTrue([.timeout, .deadlineExceeded].contains(s), "\(s)")
        }
        // Calls still queued at their deadline never reached a reader.
        XCTAssertLessThan(entered.count, 16)
        // The request answers a deadline with its error response.
        let response = try await r.request(method: "resources/read", params: #"{"uri":"doc://hang"}"#, on: executor,
                                           options: RequestOptions(timeout: .milliseconds(100)))
        XCTAssertTrue(response.isError, response.json)
    }

    func testAsyncCallsAnswerAsTheBlockingCallsDo() async throws {
        let r = try docsRegistry()
        let executor = try CallbackExecutor(threads: 2)
        let read = try await r.read("doc://a", on: executor, options: ReadOptions(protocolRevision: "2025-11-25"))
        XCTAssertEqual(read.json, try r.read("doc://a", options: ReadOptions(protocolRevision: "2025-11-25")).json)
        let missing = await asyncError { try await r.read("doc://nowhere", on: executor) }
        let blockingMissing = mcprError { try r.read("doc://nowhere") }
        XCTAssertEqual(missing?.status, .unavailable)
        XCTAssertEqual(missing?.jsonrpcJSON, blockingMissing?.jsonrpcJSON)

        var cursor: String? = nil
        var uris: [String] = []
        repeat {
            let o = ListOptions(scopeKey: "tenant", cursor: cursor, pageSize: 2)
            let page = try await r.list(o, on: executor)
            // The same page (cursors are sealed afresh each time).
            let blocking = try r.list(o)
            XCTAssertEqual(withoutCursor(page.json), withoutCursor(blocking.json))
            XCTAssertEqual(page.nextCursor == nil, blocking.nextCursor == nil)
            uris += ((object(page.json)["resources"] as? [[String: Any]]) ?? []).compactMap { $0["uri"] as? String }
            cursor = page.nextCursor
        } while cursor != nil
        XCTAssertEqual(uris, ["doc://a", "doc://b", "doc://c", "doc://d", "doc://e", "doc://hidden"])
        let templates = try await r.listTemplates(ListOptions(scopeKey: "tenant"), on: executor)
        XCTAssertEqual(templates.json, try r.listTemplates(ListOptions(scopeKey: "tenant")).json)

        let o = RequestOptions(protocolRevision: "2025-11-25", scopeKey: "tenant")
        for (method, params) in [("resources/read", #"{"uri":"doc://b"}"#), ("resources/read", #"{"uri":"doc://no"}"#),
                                 ("resources/list", nil), ("resources/templates/list", "{}"),
                                 ("resources/read", "[1]"),
                                 ("completion/complete",
                                  #"{"ref":{"type":"ref/resource","uri":"note://n/{id}"},"argument":{"name":"id","value":"x"}}"#)]
        {
            let a = try await r.request(method: method, params: params, on: executor, options: o)
            let b = try r.request(method: method, params: params, options: o)
            XCTAssertEqual(a.json, b.json, method)
            XCTAssertEqual(a.isError, b.isError, method)
            XCTAssertEqual(a.status, b.status, method)
        }
        let completion = try await r.complete(template: "note://n/{id}", argument: "id", value: "x", on: executor)
        XCTAssertEqual(completion.json, try r.complete(template: "note://n/{id}", argument: "id", value: "x").json)
    }

    func testAnAsyncMessageAnswersEveryKindOfMessageAsTheBlockingOne() async throws {
        let r = try docsRegistry()
        let executor = try CallbackExecutor(threads: 2)
        let o = RequestOptions(protocolRevision: "2025-11-25", scopeKey: "tenant")
        for text in [#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"doc://a"}}"#,
                     #"{"jsonrpc":"2.0","id":"x","method":"resources/read","params":{"uri":"doc://no"}}"#,
                     #"{"jsonrpc":"2.0","id":2,"method":"resources/templates/list"}"#,
                     #"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#,
                     #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
                     "not json", "[1]"]
        {
            let a = try await r.message(text, on: executor, options: o)
            let b = try r.message(text, options: o)
            XCTAssertEqual(a.json, b.json, text)
            XCTAssertEqual(a.handled, b.handled, text)
            XCTAssertEqual(a.kind, b.kind, text)
            XCTAssertEqual(a.method, b.method, text)
            XCTAssertEqual(a.id, b.id, text)
        }
        // A request whose task was cancelled has nothing to send.
        let open = Flag(), entered = Counter()
        defer { open.set() }
        let slow = try hangingRegistry(open: open, entered: entered)
        let task = Task {
            try await slow.message(#"{"jsonrpc":"2.0","id":9,"method":"resources/read","params":{"uri":"doc://hang"}}"#,
                                   on: executor)
        }
        let inReader = await eventually(20) { entered.count == 1 }
        XCTAssertTrue(inReader)
        task.cancel()
        let reply = try await task.value
        XCTAssertEqual(reply.json, "")
        XCTAssertEqual(reply.status, .canceled)
        let noScope = await asyncError {
            try await r.message(#"{"jsonrpc":"2.0","id":4,"method":"resources/list"}"#, on: executor)
        }
        XCTAssertEqual(noScope?.status, .invalidArgument)
    }

    func testTheContextReachesTheCallbacksOfAnAsyncCall() async throws {
        let seen = Recorder<String>()
        let b = ResourcesBuilder()
        try b.setAllowAllPolicy().add(#"{"uri":"doc://ctx","name":"c"}"#) { call, _, out in
            seen.append(call.context as? String ?? "nil")
            try out.setText("ok")
        }
        let r = try b.build()
        let executor = try CallbackExecutor(threads: 2)
        _ = try await r.read("doc://ctx", on: executor, options: ReadOptions(context: "caller-7"))
        XCTAssertEqual(seen.values, ["caller-7"])
    }

    func testHostMistakesThrowWithoutStartingACall() async throws {
        let r = try docsRegistry()
        let executor = try CallbackExecutor(threads: 2)
        let noScope = await asyncError { try await r.list(ListOptions(scopeKey: ""), on: executor) }
        XCTAssertEqual(noScope?.status, .invalidArgument)
        let unserved = await asyncError { try await r.request(method: "tools/list", params: nil, on: executor) }
        XCTAssertEqual(unserved?.status, .methodNotHandled)
        let badRevision = await asyncError {
            try await r.read("doc://a", on: executor, options: ReadOptions(protocolRevision: "1999-01-01"))
        }
        XCTAssertEqual(badRevision?.status, .invalidArgument)
        XCTAssertEqual(try executor.stats().started, 0)
    }
}
