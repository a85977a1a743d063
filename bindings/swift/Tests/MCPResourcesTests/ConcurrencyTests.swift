// Concurrency, executors, deadlines and cancellation.
import Dispatch
import Foundation
import MCPResources
import XCTest

final class ConcurrencyTests: XCTestCase {
    func testEightConcurrentTasksReadAndListOneRegistryInlineAndOnAnExecutor() async throws {
        let reads = Counter()
        let b = ResourcesBuilder()
        try b.setPolicy(PolicyFunctions.allowAll)
        for i in 0..<20 {
            try b.add(#"{"uri":"doc://\#(i)","name":"n"}"#) { _, t, out in
                reads.add()
                try out.setText("body of \(t.uri)")
            }
        }
        let r = try b.build()
        let executor = try CallbackExecutor(threads: 2)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var served = 0
                    for i in 0..<50 {
                        let uri = "doc://\((task + i) % 20)"
                        let o = ReadOptions(executor: task % 2 == 0 ? executor : nil, context: task)
                        let result = try r.read(uri, options: o)
                        guard texts(result) == ["body of \(uri)"] else { throw MCPRError(status: .internal, message: uri) }
                        var cursor: String? = nil
                        var listed = 0
                        repeat {
                            let page = try r.list(ListOptions(scopeKey: "task-\(task)", cursor: cursor, pageSize: 7,
                                                              executor: task % 2 == 0 ? executor : nil))
                            listed += ((object(page.json)["resources"] as? [Any]) ?? []).count
                            cursor = page.nextCursor
                        } while cursor != nil
                        guard listed == 20 else { throw MCPRError(status: .internal, message: "listed \(listed)") }
                        served += 1
                    }
                    return served
                }
            }
            var total = 0
            for try await n in group { total += n }
            XCTAssertEqual(total, 400)
        }
        XCTAssertEqual(reads.count, 400)
    }

    func testCallbacksRunConcurrentlyOnManyThreadsWithTheirOwnContext() throws {
        let mismatches = Counter()
        let b = ResourcesBuilder()
        try b.setAllowAllPolicy().add(#"{"uriTemplate":"ctx://c/{n}","name":"c"}"#) { call, t, out in
            if "ctx://c/\(call.context as? Int ?? -1)" != t.uri { mismatches.add() }
            try out.setText("ok")
        }
        let r = try b.build()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for i in 0..<200 {
                let n = worker * 1000 + i
                _ = try? r.read("ctx://c/\(n)", options: ReadOptions(context: n))
            }
        }
        XCTAssertEqual(mismatches.count, 0)
    }

    func testACancelTokenStopsAReadFromAnotherThread() throws {
        let entered = Flag()
        let b = ResourcesBuilder()
        try b.setAllowAllPolicy().add(#"{"uri":"doc://slow","name":"s"}"#) { call, _, _ in
            entered.set()
            while !call.isCanceled { usleep(2000) }
            throw CallbackFailure.failed("stopped")
        }
        let r = try b.build()
        let token = CancelToken()
        XCTAssertFalse(token.isCanceled)
        let canceller = Thread {
            _ = waitUntil(10) { entered.isSet }
            token.cancel()
        }
        canceller.start()
        let t0 = Date()
        let e = try XCTUnwrap(mcprError { try r.read("doc://slow", options: ReadOptions(cancel: token)) })
        XCTAssertEqual(e.status, .canceled)
        XCTAssertTrue(token.isCanceled)
        XCTAssertLessThan(Date().timeIntervalSince(t0), 10)
    }

    func testOnAnExecutorACanceledReadReturnsAtOnceWhileTheReaderIgnoresItThenReleaseRunsOnce() throws {
        let open = Flag(), entered = Flag(), dead = Counter()
        do {
            let b = ResourcesBuilder()
            let s = Sentinel(dead)
            try b.setAllowAllPolicy().add(#"{"uri":"doc://hang","name":"h"}"#) { _, _, out in
                _ = s
                entered.set()
                while !open.isSet { usleep(2000) }  // ignores cancellation
                try out.setText("late")
            }
            let r = try b.build()
            let executor = try CallbackExecutor(threads: 2)
            let token = CancelToken()
            Thread {
                _ = waitUntil(10) { entered.isSet }
                token.cancel()
            }.start()
            let t0 = Date()
            let e = try XCTUnwrap(mcprError { try r.read("doc://hang", options: ReadOptions(cancel: token, executor: executor)) })
            XCTAssertEqual(e.status, .canceled)
            XCTAssertLessThan(Date().timeIntervalSince(t0), 10)
            XCTAssertEqual(try executor.stats().hung, 1)
        }
        // registry and executor are gone; the abandoned reader still runs
        XCTAssertEqual(dead.count, 0)
        open.set()
        XCTAssertTrue(waitUntil(20) { dead.count == 1 })
        usleep(50_000)
        XCTAssertEqual(dead.count, 1)
    }

    func testOnAnExecutorAReadReturnsByItsDeadlineWhatEverTheReaderDoes() throws {
        let open = Flag()
        let b = ResourcesBuilder()
        try b.setAllowAllPolicy().add(#"{"uri":"doc://hang","name":"h"}"#) { _, _, _ in
            while !open.isSet { usleep(2000) }
        }
        let r = try b.build()
        let executor = try CallbackExecutor(ExecutorOptions(threads: 2, maxHung: 4))
        defer { open.set() }
        let t0 = Date()
        let e = try XCTUnwrap(mcprError { try r.read("doc://hang", options: ReadOptions(timeout: .milliseconds(200), executor: executor)) })
        XCTAssertTrue([.timeout, .deadlineExceeded].contains(e.status), "\(e.status)")
        XCTAssertLessThan(Date().timeIntervalSince(t0), 10)
        let stats = try executor.stats()
        XCTAssertEqual(stats.threads, 2)
        XCTAssertEqual(stats.maxHung, 4)
        XCTAssertGreaterThanOrEqual(stats.started, 1)
        XCTAssertFalse(stats.isSaturated)
        // The abandoned reader shows in the marks that outlive it.
        XCTAssertEqual(stats.hungHighWater, 1)
        XCTAssertGreaterThanOrEqual(stats.busyHighWater, 1)
        XCTAssertEqual(stats.saturations, 0)
        XCTAssertEqual(stats.refusedQueueFull, 0)
    }

    func testImpossibleExecutorSizesAreRefused() {
        XCTAssertEqual(mcprError { try CallbackExecutor(threads: -1) }?.status, .invalidArgument)
        XCTAssertEqual(mcprError { try CallbackExecutor(threads: 5000) }?.status, .invalidArgument)
    }

    func testAContextIsGoneForACallbackAbandonedAfterItsCallReturned() throws {
        let open = Flag(), seenAfter = Recorder<String>()
        let b = ResourcesBuilder()
        try b.setAllowAllPolicy().add(#"{"uri":"doc://late","name":"l"}"#) { call, _, _ in
            while !open.isSet { usleep(2000) }
            seenAfter.append(call.context == nil ? "nil" : "value")
        }
        let r = try b.build()
        let executor = try CallbackExecutor(threads: 2)
        _ = mcprError { try r.read("doc://late", options: ReadOptions(timeout: .milliseconds(100), executor: executor, context: "ctx")) }
        open.set()
        XCTAssertTrue(waitUntil(20) { !seenAfter.values.isEmpty })
        XCTAssertEqual(seenAfter.values, ["nil"])
    }
}
