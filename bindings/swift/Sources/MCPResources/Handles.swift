// The small shared handles: cancellation tokens and callback executors.
import CMCPResources

/// A cancellation token (`mcpr_cancel`). Give it to a call's options and
/// call `cancel()` from any thread: the call returns `Status.canceled`
/// (at once with an executor; inline, at the next check between callbacks
/// or when a callback polls `Call.isCanceled`). A call keeps its own
/// reference, so the token may go once the call returned. Sendable: the
/// token is thread-safe.
public final class CancelToken: @unchecked Sendable {
    let raw: OpaquePointer

    /// A new, uncancelled token. Traps only when memory is exhausted.
    public init() {
        guard let p = mcpr_cancel_new() else { fatalError("mcpr_cancel_new: out of memory") }
        raw = p
    }

    deinit { mcpr_cancel_free(raw) }

    /// Cancels every call using the token (idempotent, any thread).
    public func cancel() { mcpr_cancel_cancel(raw) }

    /// Whether `cancel()` was called.
    public var isCanceled: Bool { mcpr_cancel_is_canceled(raw) }
}

/// Result `_meta` members the host adds to every result of the calls given
/// it (`mcpr_result_meta`), for example `io.modelcontextprotocol/serverInfo`:
/// validated once, then shared by any number of calls on any threads. The
/// library merges them after its own members, which they never replace,
/// and never into error objects.
public final class ResultMeta: @unchecked Sendable {
    let raw: OpaquePointer

    /// Validates a JSON object of members: the rules definitions are held
    /// to, at most 63 KiB, never the library's reserved key
    /// `go.phpboyscout.uk/mcp.resourceRead`. Throws `MCPRError`
    /// (`invalidConfiguration`) saying what is wrong.
    public init(json: String) throws {
        var out: OpaquePointer? = nil
        try withStr(json) { s in try check { mcpr_result_meta_new(s, &out, $0) } }
        guard let out else { throw MCPRError(status: .internal, message: "mcpr_result_meta_new gave no handle") }
        raw = out
    }

    deinit { mcpr_result_meta_free(raw) }

    /// The compact members, without the enclosing braces.
    public var members: String { String(mcpr_result_meta_members(raw)) }
}

/// Sizing of a `CallbackExecutor`; 0 means the library's default.
public struct ExecutorOptions: Sendable, Equatable {
    /// Healthy workers (0 = the cores, at least 2; at most 1024).
    public var threads: Int
    /// Most hung workers replaced (0 = max(8 x threads, 64)).
    public var maxHung: Int
    /// Most calls waiting for a worker (0 = max(64 x threads, 1024)).
    public var maxQueued: Int

    /// Sizes (0 = the default of each).
    public init(threads: Int = 0, maxHung: Int = 0, maxQueued: Int = 0) {
        self.threads = threads
        self.maxHung = maxHung
        self.maxQueued = maxQueued
    }
}

/// A snapshot of an executor's counters (`mcpr_executor_stats`).
public struct ExecutorStats: Sendable, Equatable {
    /// The configured workers, the hung-worker bound and the queue bound.
    public var threads: UInt64, maxHung: UInt64, maxQueued: UInt64
    /// Threads alive; workers running a waited-for job; workers in
    /// abandoned callbacks; jobs waiting.
    public var workers: UInt64, busy: UInt64, hung: UInt64, queued: UInt64
    /// Jobs started; running jobs abandoned by their caller; abandoned
    /// jobs since returned; jobs dropped before they started.
    public var started: UInt64, abandoned: UInt64, returned: UInt64, dropped: UInt64
    /// Saturation refusals; workers started to replace hung ones.
    public var refused: UInt64, replaced: UInt64
    /// High-water marks since the executor was made: the most jobs that
    /// waited at once (against `maxQueued`), the most workers busy at once
    /// (against `threads`), the most hung at once (against `maxHung`).
    public var queuedHighWater: UInt64, busyHighWater: UInt64, hungHighWater: UInt64
    /// Times the executor became saturated (once each time, until hung
    /// workers return); the part of `refused` refused because `maxQueued`
    /// calls were waiting.
    public var saturations: UInt64, refusedQueueFull: UInt64

    /// Whether hung callbacks have used up the bound (body reads of a
    /// binding with a hung reader then fail at once).
    public var isSaturated: Bool { hung >= maxHung || (workers > 0 && hung == workers) }

    init(_ s: mcpr_executor_stats) {
        threads = s.threads
        maxHung = s.max_hung
        maxQueued = s.max_queued
        workers = s.workers
        busy = s.busy
        hung = s.hung
        queued = s.queued
        started = s.started
        abandoned = s.abandoned
        returned = s.returned
        dropped = s.dropped
        refused = s.refused
        replaced = s.replaced
        queuedHighWater = s.queued_high_water
        busyHighWater = s.busy_high_water
        hungHighWater = s.hung_high_water
        saturations = s.saturations
        refusedQueueFull = s.refused_queue_full
    }
}

/// A worker pool for callbacks (`mcpr_executor`; named so to stay clear of
/// Swift's own `Executor` protocol). A read, listing, completion or request
/// given one runs every callback on its workers and returns by its deadline
/// whatever a callback does: a hung callback is abandoned (it keeps running
/// on its worker; its binding's state stays alive until it returns).
/// Sendable: share one between registries and threads.
public final class CallbackExecutor: @unchecked Sendable {
    let raw: OpaquePointer

    /// Throws `MCPRError` (`invalidArgument`) for impossible sizes.
    public init(_ options: ExecutorOptions = ExecutorOptions()) throws {
        guard options.threads >= 0, options.maxHung >= 0, options.maxQueued >= 0 else {
            throw MCPRError.argument("negative executor size")
        }
        var c = mcpr_executor_options()
        c.struct_size = MemoryLayout<mcpr_executor_options>.stride
        c.threads = options.threads
        c.max_hung = options.maxHung
        c.max_queued = options.maxQueued
        var out: OpaquePointer? = nil
        try check { mcpr_executor_new_with(&c, &out, $0) }
        guard let out else { throw MCPRError(status: .internal, message: "mcpr_executor_new_with gave no executor") }
        raw = out
    }

    /// An executor of `threads` workers, other bounds at their defaults.
    public convenience init(threads: Int) throws {
        try self.init(ExecutorOptions(threads: threads))
    }

    deinit { mcpr_executor_free(raw) }

    /// The executor's counters now.
    public func stats() throws -> ExecutorStats {
        var s = mcpr_executor_stats()
        s.struct_size = MemoryLayout<mcpr_executor_stats>.stride
        try check { mcpr_executor_get_stats(raw, &s, $0) }
        return ExecutorStats(s)
    }
}
