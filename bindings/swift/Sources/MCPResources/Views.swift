// What a callback is given: borrowed views of the library's objects, valid
// only until the callback returns. They are deliberately not Sendable: the
// type system cannot express "until the callback returns", so the wrapper
// keeps them from being handed to a task or thread that may outlive it.
// Their accessors copy into Swift values, which may be kept.
import CMCPResources

/// Which step of which call a callback serves (`mcpr_phase`). Later
/// versions may add values: treat unknown ones like `unknown`.
public struct Phase: RawRepresentable, Hashable, Sendable {
    /// The C value (`MCPR_PHASE_*`).
    public let rawValue: UInt32
    /// A phase by its C value.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Not known (a NULL call, or a phase of a later version).
    public static let unknown = Phase(rawValue: MCPR_PHASE_UNKNOWN)
    /// A read's policy check before its body reads.
    public static let firstCheck = Phase(rawValue: MCPR_PHASE_FIRST_CHECK)
    /// A read's policy check after its body reads (a revoked permission
    /// is honoured).
    public static let recheck = Phase(rawValue: MCPR_PHASE_RECHECK)
    /// A read's `resolve`.
    public static let resolve = Phase(rawValue: MCPR_PHASE_RESOLVE)
    /// A body read.
    public static let bodyRead = Phase(rawValue: MCPR_PHASE_BODY_READ)
    /// `discover` during a listing.
    public static let listing = Phase(rawValue: MCPR_PHASE_LISTING)
    /// `discover` and `complete` of a completion.
    public static let completion = Phase(rawValue: MCPR_PHASE_COMPLETION)
}

/// The call a callback serves (`mcpr_call`).
public struct Call {
    let raw: OpaquePointer?
    init(_ raw: OpaquePointer?) { self.raw = raw }

    /// True once the caller cancelled or this callback's deadline passed:
    /// a cooperative callback then stops and throws.
    public var isCanceled: Bool { mcpr_call_is_canceled(raw) }
    /// Time left before this callback's deadline (rounded down to the
    /// millisecond; zero once it passed).
    public var remaining: Duration { duration(milliseconds: mcpr_call_remaining_ms(raw)) }
    /// Which step of which call this is.
    public var phase: Phase { Phase(rawValue: mcpr_call_phase(raw)) }
    /// For body reads: the item byte limit (payload bytes, a hint).
    public var maxBytes: UInt64 { mcpr_call_max_bytes(raw) }
    /// The `context` of the call's options; `nil` when none was given, and
    /// for a callback abandoned on an executor once its call returned.
    public var context: (any Sendable)? { RequestContexts.shared.lookup(mcpr_call_request_data(raw)) }
    /// The private cause reported if this callback fails (copied).
    public func setCause(_ message: String) {
        withStr(message) { mcpr_call_set_cause(raw, $0) }
    }
    /// The request's `traceparent` (W3C Trace Context), as the client sent
    /// it in `params._meta`; empty when it had none.
    public var traceparent: String { String(mcpr_call_traceparent(raw)) }
    /// The request's `tracestate`, as sent; empty when absent.
    public var tracestate: String { String(mcpr_call_tracestate(raw)) }
    /// The request's `baggage` (W3C Baggage), as sent; empty when absent.
    public var baggage: String { String(mcpr_call_baggage(raw)) }
}

/// A registered definition (`mcpr_definition`).
public struct Definition {
    let raw: OpaquePointer?
    init(_ raw: OpaquePointer?) { self.raw = raw }

    /// The definition's JSON, as registered.
    public var json: String { String(mcpr_definition_json(raw)) }
    /// Its `uri`, or `uriTemplate` for a template.
    public var uri: String { String(mcpr_definition_uri(raw)) }
    /// Its `name`.
    public var name: String { String(mcpr_definition_name(raw)) }
    /// Whether it is a template.
    public var isTemplate: Bool { mcpr_definition_is_template(raw) }
}

/// A read URI matched to a definition (`mcpr_match`), given to `resolve`.
public struct Match {
    let raw: OpaquePointer?
    init(_ raw: OpaquePointer?) { self.raw = raw }

    /// The definition that matched.
    public var definition: Definition { Definition(mcpr_match_definition(raw)) }
    /// The requested URI.
    public var uri: String { String(mcpr_match_uri(raw)) }
    /// The template's captures in order (decoded once): name and value.
    public var captures: [(name: String, value: String)] {
        (0..<mcpr_match_capture_count(raw)).map {
            (String(mcpr_match_capture_name(raw, $0)), String(mcpr_match_capture_value(raw, $0)))
        }
    }
    /// The value captured for the variable `name`, if any.
    public func capture(_ name: String) -> String? {
        for i in 0..<mcpr_match_capture_count(raw) where String(mcpr_match_capture_name(raw, i)) == name {
            return String(mcpr_match_capture_value(raw, i))
        }
        return nil
    }
}

/// A planned target (`mcpr_target`).
public struct Target {
    let raw: OpaquePointer?
    init(_ raw: OpaquePointer?) { self.raw = raw }

    /// Its URI.
    public var uri: String { String(mcpr_target_uri(raw)) }
    /// Its representation ("default" unless `resolve` chose another).
    public var representation: String { String(mcpr_target_representation(raw)) }
    /// The authorization JSON `resolve` attached (empty when none).
    public var authorization: String { String(mcpr_target_authorization(raw)) }
}

/// A `completion/complete` request for a template variable
/// (`mcpr_completion_request`). Its values are client text, never paths.
public struct CompletionRequest {
    let raw: OpaquePointer?
    init(_ raw: OpaquePointer?) { self.raw = raw }

    /// The template being completed.
    public var definition: Definition {
        Definition(mcpr_completion_request_definition(raw))
    }
    /// The variable being completed.
    public var argument: String { String(mcpr_completion_request_argument(raw)) }
    /// Its partial value as typed.
    public var value: String { String(mcpr_completion_request_value(raw)) }
    /// The other variables already chosen (`context.arguments`).
    public var context: [(name: String, value: String)] {
        (0..<mcpr_completion_request_context_count(raw)).map {
            (String(mcpr_completion_request_context_name(raw, $0)),
             String(mcpr_completion_request_context_value(raw, $0)))
        }
    }
    /// The chosen value of the variable `name` in `context`, if any.
    public func contextValue(_ name: String) -> String? {
        context.first { $0.name == name }?.value
    }
}
