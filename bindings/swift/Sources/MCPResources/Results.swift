// Results of the calls: each owns its C object and frees it when the last
// Swift reference goes. Immutable, so Sendable: read them from any thread.
// `json` copies the text into a String; `withJSONBytes` lends the library's
// own bytes without a copy (valid inside the closure only).
import CMCPResources

/// A `resources/read` result (`mcpr_bundle`).
public final class ReadResult: @unchecked Sendable {
    let raw: OpaquePointer
    init(_ raw: OpaquePointer) { self.raw = raw }
    deinit { mcpr_bundle_free(raw) }

    /// The JSON-RPC `result` object.
    public var json: String { String(mcpr_bundle_json(raw)) }
    /// The JSON's bytes, borrowed for the duration of `body`.
    public func withJSONBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withBytes(mcpr_bundle_json(raw), body)
    }
    /// Whether some item failed (the first item is then the diagnostic
    /// warning, and `_meta` holds the report).
    public var isPartial: Bool { mcpr_bundle_is_partial(raw) }
}

/// One page of `resources/list` or `resources/templates/list` (`mcpr_page`).
public final class ListPage: @unchecked Sendable {
    let raw: OpaquePointer
    init(_ raw: OpaquePointer) { self.raw = raw }
    deinit { mcpr_page_free(raw) }

    /// The JSON-RPC `result` object.
    public var json: String { String(mcpr_page_json(raw)) }
    /// The JSON's bytes, borrowed for the duration of `body`.
    public func withJSONBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withBytes(mcpr_page_json(raw), body)
    }
    /// The cursor of the next page; `nil` on the last page.
    public var nextCursor: String? {
        let c = mcpr_page_next_cursor(raw)
        return c.len == 0 ? nil : String(c)
    }
}

/// The response `Resources.request` made (`mcpr_response`): a `result`, or
/// for a client's mistake an `error` object.
public final class Response: @unchecked Sendable {
    let raw: OpaquePointer
    init(_ raw: OpaquePointer) { self.raw = raw }
    deinit { mcpr_response_free(raw) }

    /// The JSON to send: as `result`, or as `error` when `isError`.
    public var json: String { String(mcpr_response_json(raw)) }
    /// The JSON's bytes, borrowed for the duration of `body`.
    public func withJSONBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withBytes(mcpr_response_json(raw), body)
    }
    /// Whether `json` is a JSON-RPC error object.
    public var isError: Bool { mcpr_response_is_error(raw) }
    /// The status behind an error response (`.ok` for a result).
    public var status: Status { Status(mcpr_response_status(raw)) }
    /// The private cause of an error response: log it, never send it.
    public var cause: String { String(mcpr_response_cause(raw)) }
    /// Whether a read result is partial.
    public var isPartial: Bool { mcpr_response_is_partial(raw) }
    /// Whether `json` is a complete JSON-RPC notification message to send
    /// as it is (the acknowledgement of `subscriptions/listen`, the
    /// stream's first message), not a `result` object: the listen request
    /// itself is answered when the stream ends (`Response.listenClosed`).
    public var isNotification: Bool { mcpr_response_is_notification(raw) }
    /// What to record after a successful `resources/subscribe`,
    /// `resources/unsubscribe` or `subscriptions/listen` (copied); nil for
    /// every other response, error objects included.
    public var subscription: Subscription? { mcpr_response_subscription(raw).map(Subscription.init) }
}

/// A `completion/complete` result (`mcpr_completion`).
public final class CompletionResult: @unchecked Sendable {
    let raw: OpaquePointer
    init(_ raw: OpaquePointer) { self.raw = raw }
    deinit { mcpr_completion_free(raw) }

    /// The JSON-RPC `result` object.
    public var json: String { String(mcpr_completion_json(raw)) }
    /// How many values it holds (at most 100).
    public var valueCount: Int { mcpr_completion_value_count(raw) }
    /// Whether more values exist than it holds.
    public var hasMore: Bool { mcpr_completion_has_more(raw) }
}
