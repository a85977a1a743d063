// Asynchronous calls (docs/BEHAVIOUR.md §20): `async` functions built on
// the C ABI's start entry points (`mcpr_read_start`, `mcpr_list_start`,
// `mcpr_list_templates_start`, `mcpr_request_start`, `mcpr_complete_start`,
// `mcpr_message_start`).
// A call in flight holds no thread: the start returns at once, and the
// library's done callback, run exactly once on one of the executor's
// threads, resumes the task's continuation. Task cancellation cancels the
// call's token (`mcpr_cancel_cancel`), so the call concludes as `canceled`
// at once, whatever its callbacks do.
import CMCPResources

/// One call in flight, from its start to its done callback. Retained once
/// for the library (the `done_data`), released by the done callback, or by
/// the start when it fails (then the library never calls back).
private final class Pending<T: Sendable>: @unchecked Sendable {
    private let continuation: CheckedContinuation<T, any Error>
    private let make: (OpaquePointer) -> T
    /// The call's registered `context` (see `RequestContexts.enter`).
    private let context: UnsafeMutableRawPointer?

    init(_ continuation: CheckedContinuation<T, any Error>, _ make: @escaping (OpaquePointer) -> T,
         context: UnsafeMutableRawPointer?)
    {
        self.continuation = continuation
        self.make = make
        self.context = context
    }

    /// The call's outcome, as the blocking call would have returned it.
    func finish(_ status: mcpr_status, _ result: OpaquePointer?, _ error: OpaquePointer?) {
        RequestContexts.shared.leave(context)
        if status == MCPR_OK, let result {
            continuation.resume(returning: make(result))
        } else {
            continuation.resume(throwing: MCPRError(status: status == MCPR_OK ? MCPR_INTERNAL : status,
                                                    taking: error))
        }
    }

    /// The start failed (a host mistake): the library will not call back.
    func failed(_ error: any Error) {
        RequestContexts.shared.leave(context)
        continuation.resume(throwing: error)
    }
}

/// The body of every done callback: the pending call of `data`, released.
/// Never throws or traps (it runs on a library thread).
private func finishPending<T: Sendable>(_: T.Type, _ data: UnsafeMutableRawPointer?, _ status: mcpr_status,
                                        _ result: OpaquePointer?, _ error: OpaquePointer?)
{
    guard let data else { return }
    Unmanaged<Pending<T>>.fromOpaque(data).takeRetainedValue().finish(status, result, error)
}

/// Runs one asynchronous call: registers its `context`, starts it through
/// `start` (given the `done_data` and the `request_data`; it throws when the
/// start fails), and suspends until the done callback. Task cancellation,
/// also before the start, cancels `token`.
private func inFlight<T: Sendable>(token: CancelToken, context: (any Sendable)?,
                                   make: @escaping (OpaquePointer) -> T,
                                   start: (UnsafeMutableRawPointer, UnsafeMutableRawPointer?) throws -> Void)
    async throws -> T
{
    try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<T, any Error>) in
            let data = RequestContexts.shared.enter(context)
            let pending = Pending(c, make, context: data)
            let doneData = Unmanaged.passRetained(pending).toOpaque()
            do {
                try start(doneData, data)
            } catch {
                // `done` never runs after a failed start: the library's
                // retain is ours to give back.
                Unmanaged<Pending<T>>.fromOpaque(doneData).release()
                pending.failed(error)
            }
        }
    } onCancel: {
        token.cancel()
    }
}

extension Resources {
    /// `read(_:options:)` as an asynchronous call on `executor`
    /// (`mcpr_read_start`): no thread waits while the read is in flight,
    /// and every guarantee of a read on an executor holds (the result by the
    /// deadline whatever the reader does, body reads past their item
    /// deadline becoming `timeout` items). Cancelling the task cancels the
    /// call: it throws `MCPRError` with status `canceled` at once. The call
    /// uses `options.cancel` when given (then cancelling the task cancels
    /// that token, and every call sharing it), else a token of its own.
    public func read(_ uri: String, on executor: CallbackExecutor,
                     options: ReadOptions = ReadOptions()) async throws -> ReadResult
    {
        var o = options
        o.executor = executor
        let token = o.cancel ?? CancelToken()
        o.cancel = token
        return try await inFlight(token: token, context: o.context, make: ReadResult.init) { done, data in
            try o.withC(requestData: data) { c in
                try withStr(uri) { u in
                    try check {
                        mcpr_read_start(raw, u, c, { finishPending(ReadResult.self, $0, $1, $2, $3) }, done, $0)
                    }
                }
            }
        }
    }

    /// `list(_:)` as an asynchronous call on `executor` (`mcpr_list_start`;
    /// cancellation and the token as for `read(_:on:options:)`).
    public func list(_ options: ListOptions, on executor: CallbackExecutor) async throws -> ListPage {
        try await listStart(options, on: executor, templates: false)
    }

    /// `listTemplates(_:)` as an asynchronous call on `executor`
    /// (`mcpr_list_templates_start`; as `list(_:on:)`).
    public func listTemplates(_ options: ListOptions, on executor: CallbackExecutor) async throws -> ListPage {
        try await listStart(options, on: executor, templates: true)
    }

    private func listStart(_ options: ListOptions, on executor: CallbackExecutor, templates: Bool) async throws
        -> ListPage
    {
        var o = options
        o.executor = executor
        let token = o.cancel ?? CancelToken()
        o.cancel = token
        return try await inFlight(token: token, context: o.context, make: ListPage.init) { done, data in
            try o.withC(requestData: data) { c in
                try check {
                    let finish: mcpr_list_done_fn = { finishPending(ListPage.self, $0, $1, $2, $3) }
                    return templates
                        ? mcpr_list_templates_start(raw, c, finish, done, $0)
                        : mcpr_list_start(raw, c, finish, done, $0)
                }
            }
        }
    }

    /// `request(method:params:options:)` as an asynchronous call on
    /// `executor` (`mcpr_request_start`; cancellation and the token as for
    /// `read(_:on:options:)`). A deadline, a cancellation or a saturated
    /// executor is an error `Response`, as from the blocking call; a method
    /// the library does not serve throws `methodNotHandled` without
    /// starting anything.
    public func request(method: String, params: String?, on executor: CallbackExecutor,
                        options: RequestOptions = RequestOptions()) async throws -> Response
    {
        var o = options
        o.executor = executor
        let token = o.cancel ?? CancelToken()
        o.cancel = token
        let paramsText = params ?? ""
        return try await inFlight(token: token, context: o.context, make: Response.init) { done, data in
            try o.withC(requestData: data) { c in
                try withStrs(method, paramsText) { m, p in
                    try check {
                        mcpr_request_start(raw, m, p, c, { finishPending(Response.self, $0, $1, $2, $3) }, done, $0)
                    }
                }
            }
        }
    }

    /// `complete(template:argument:value:context:options:)` as an
    /// asynchronous call on `executor` (`mcpr_complete_start`; cancellation
    /// and the token as for `read(_:on:options:)`).
    public func complete(template: String, argument: String, value: String,
                         context: [(name: String, value: String)] = [], on executor: CallbackExecutor,
                         options: ReadOptions = ReadOptions()) async throws -> CompletionResult
    {
        var o = options
        o.executor = executor
        let token = o.cancel ?? CancelToken()
        o.cancel = token
        return try await inFlight(token: token, context: o.context, make: CompletionResult.init) { done, data in
            try o.withC(requestData: data) { c in
                try withStrs(template, argument, value) { t, a, v in
                    try withArguments(context) { args in
                        var p = mcpr_complete_params(template_uri: t,
                                                     argument: mcpr_complete_argument(name: a, value: v),
                                                     context: args.baseAddress, context_len: args.count)
                        try check {
                            mcpr_complete_start(raw, &p, c, { finishPending(CompletionResult.self, $0, $1, $2, $3) },
                                                done, $0)
                        }
                    }
                }
            }
        }
    }

    /// `message(_:options:)` as an asynchronous call on `executor`
    /// (`mcpr_message_start`; cancellation and the token as for
    /// `read(_:on:options:)`): a request the library serves runs on the
    /// executor, and every other message gets its reply the same way.
    /// Throws `MCPRError` only for host mistakes (no scope key for a
    /// listing, an unknown revision), without starting anything.
    public func message(_ message: String, on executor: CallbackExecutor,
                        options: RequestOptions = RequestOptions()) async throws -> Reply
    {
        var o = options
        o.executor = executor
        let token = o.cancel ?? CancelToken()
        o.cancel = token
        return try await inFlight(token: token, context: o.context, make: Reply.init) { done, data in
            try o.withC(requestData: data) { c in
                try withStr(message) { m in
                    try check {
                        mcpr_message_start(raw, m, c, { finishPending(Reply.self, $0, $1, $2, $3) }, done, $0)
                    }
                }
            }
        }
    }
}
