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
    /// Whether it is an InputRequiredResult (a callback asked for input
    /// first); `json` is still the result to send.
    public var isInputRequired: Bool { mcpr_bundle_is_input_required(raw) }
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
    /// Whether a read result is an InputRequiredResult.
    public var isInputRequired: Bool { mcpr_response_is_input_required(raw) }
}

/// What a JSON-RPC message was (`mcpr_message_kind`).
public enum MessageKind: Sendable, Equatable {
    /// JSON whitespace only: ignored.
    case none
    /// A method and an id.
    case request
    /// A method and no id: never answered.
    case notification
    /// An id and `result` or `error`, no method: the client answering.
    case response
    /// Not a JSON-RPC message: answered `-32700` or `-32600`.
    case invalid
    /// A kind this wrapper does not know yet (a later library).
    case unknown(UInt32)

    init(_ k: mcpr_message_kind) {
        switch k {
        case MCPR_MESSAGE_NONE: self = .none
        case MCPR_MESSAGE_REQUEST: self = .request
        case MCPR_MESSAGE_NOTIFICATION: self = .notification
        case MCPR_MESSAGE_RESPONSE: self = .response
        case MCPR_MESSAGE_INVALID: self = .invalid
        default: self = .unknown(k)
        }
    }
}

/// The reply to one JSON-RPC message (`mcpr_reply`): the whole response
/// message to send (`json`, empty when nothing is to be sent) and, when
/// `handled` is false, what the host needs to answer the message itself.
public final class Reply: @unchecked Sendable {
    let raw: OpaquePointer
    init(_ raw: OpaquePointer) { self.raw = raw }
    deinit { mcpr_reply_free(raw) }

    /// The whole JSON-RPC response message (one line, no newline), or ""
    /// when nothing is to be sent.
    public var json: String { String(mcpr_reply_json(raw)) }
    /// The response message's bytes, borrowed for the duration of `body`.
    public func withJSONBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withBytes(mcpr_reply_json(raw), body)
    }
    /// Whether the library dealt with the message. False for a request or
    /// notification of a method it does not serve (answer a request with
    /// `id`: `-32601` when you serve it neither) and for a response.
    public var handled: Bool { mcpr_reply_handled(raw) }
    /// What the message was.
    public var kind: MessageKind { MessageKind(mcpr_reply_kind(raw)) }
    /// The method of a request or notification (decoded), else "".
    public var method: String { String(mcpr_reply_method(raw)) }
    /// The raw JSON text of the id, exactly as sent (a string with its
    /// quotes, or an integer), to put as is into your own response; "" for
    /// a notification.
    public var id: String { String(mcpr_reply_id(raw)) }
    /// The raw params text of a message not handled, borrowed for the
    /// duration of `body` (empty when it had none).
    public func withParamsBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withBytes(mcpr_reply_params(raw), body)
    }
    /// The status behind the reply (`.ok` for a result; `.canceled` for a
    /// cancelled request, which gets no response).
    public var status: Status { Status(mcpr_reply_status(raw)) }
    /// Whether `json` is an error response.
    public var isError: Bool { mcpr_reply_is_error(raw) }
    /// The private cause behind a failure: log it, never send it.
    public var cause: String { String(mcpr_reply_cause(raw)) }
    /// Whether a read result is partial.
    public var isPartial: Bool { mcpr_reply_is_partial(raw) }
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
