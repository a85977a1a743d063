// The host's callbacks: a policy (ResourcePolicy, or PolicyFunctions of
// closures) and bindings (ResourceBinding with the optional
// ResourceResolver, ResourceCompleter and ResourceSizeHinting, or
// BindingFunctions of closures).
//
// Every callback may run concurrently on any thread, also after the call
// that made it returned (a callback abandoned on an executor): so policies
// and bindings are Sendable, and what they capture lives as long as the
// registry and its last callback. A callback answers OK by returning; it
// throws CallbackFailure to answer otherwise, and any other error fails it
// with the error's description as the private cause. Nothing a callback
// throws reaches the library. (A trap -- fatalError, a failed precondition
// or force-unwrap, an overflow -- ends the process, as anywhere in Swift; it
// never unwinds through the library either.)

/// A policy's answer to `discover` and `read`.
public enum Access: Sendable, Equatable {
    /// Allowed.
    case allow
    /// Denied: the definition or target is treated as absent (the same
    /// answer as not found, on purpose).
    case deny
}

/// A policy's visibility decision.
public struct Visibility: Sendable, Equatable {
    /// Whether the caller may know the target exists.
    public var visible: Bool
    /// Whether an issue about the target may name its URI.
    public var discloseIssueURI: Bool

    /// A decision; issues name the URI only when `discloseIssueURI`.
    public init(visible: Bool, discloseIssueURI: Bool = false) {
        self.visible = visible
        self.discloseIssueURI = discloseIssueURI
    }

    /// Visible; issues do not name the URI.
    public static let visible = Visibility(visible: true)
    /// Hidden: outside the selection, never reported.
    public static let hidden = Visibility(visible: false)
}

/// The access policy (`mcpr_policy_callbacks`). A read asks it before its
/// body reads and again after them (`Call.phase` tells which).
public protocol ResourcePolicy: Sendable {
    /// May the caller discover this definition? (Reads, listings and
    /// completions ask.)
    func discover(_ call: Call, _ definition: Definition) throws -> Access
    /// Is this target visible, and may issues name its URI?
    func visibility(_ call: Call, _ target: Target) throws -> Visibility
    /// May the caller read this visible target?
    func read(_ call: Call, _ target: Target) throws -> Access
}

/// A policy of closures. A missing closure fails closed: `discover` and
/// `read` deny, `visibility` hides.
public struct PolicyFunctions: ResourcePolicy {
    private let discoverFn: (@Sendable (Call, Definition) throws -> Access)?
    private let visibilityFn: (@Sendable (Call, Target) throws -> Visibility)?
    private let readFn: (@Sendable (Call, Target) throws -> Access)?

    /// A policy of the given closures (missing ones fail closed).
    public init(discover: (@Sendable (Call, Definition) throws -> Access)? = nil,
                visibility: (@Sendable (Call, Target) throws -> Visibility)? = nil,
                read: (@Sendable (Call, Target) throws -> Access)? = nil)
    {
        discoverFn = discover
        visibilityFn = visibility
        readFn = read
    }

    /// The `discover` closure's answer, or deny.
    public func discover(_ call: Call, _ definition: Definition) throws -> Access {
        try discoverFn?(call, definition) ?? .deny
    }

    /// The `visibility` closure's answer, or hidden.
    public func visibility(_ call: Call, _ target: Target) throws -> Visibility {
        try visibilityFn?(call, target) ?? .hidden
    }

    /// The `read` closure's answer, or deny.
    public func read(_ call: Call, _ target: Target) throws -> Access {
        try readFn?(call, target) ?? .deny
    }

    /// Shows and allows everything, in Swift (tests, demos). The library's
    /// native allow-all, `ResourcesBuilder.setAllowAllPolicy()`, needs no
    /// callbacks at all and is faster.
    public static let allowAll = PolicyFunctions(discover: { _, _ in .allow },
                                                 visibility: { _, _ in Visibility(visible: true, discloseIssueURI: true) },
                                                 read: { _, _ in .allow })
}

/// A binding: reads one item's body (`mcpr_binding_callbacks.read`).
/// Without `ResourceResolver` a read plans the matched URI alone
/// (`mcpr_resolve_single`, no Swift callback).
public protocol ResourceBinding: Sendable {
    /// Sets the body on `payload` (one `setText` or `setBlob`). Throw
    /// `CallbackFailure.unavailable` for a typed "not found",
    /// `.invalidContent` for content known to be invalid.
    func read(_ call: Call, _ target: Target, _ payload: PayloadBuilder) throws
}

/// A binding that plans its reads itself (`resolve`).
public protocol ResourceResolver: ResourceBinding {
    /// Sets the requested target and adds the items to read.
    func resolve(_ call: Call, _ match: Match, _ plan: PlanBuilder) throws
}

/// A template binding that completes its variables (`complete`).
public protocol ResourceCompleter: ResourceBinding {
    /// Offers values for `request.argument`.
    func complete(_ call: Call, _ request: CompletionRequest, _ values: CompletionBuilder) throws
}

/// A binding that estimates its items' encoded sizes (`size_hint`).
public protocol ResourceSizeHinting: ResourceBinding {
    /// An upper bound on the bytes the item adds to the encoded result,
    /// or nil for the exact measurement. Must be cheap and pure.
    func sizeHint(_ target: Target, payloadBytes: UInt64, isBlob: Bool) -> UInt64?
}

/// A binding of closures; `resolve`, `complete` and `sizeHint` are optional
/// (nil: the matched URI alone, no completion, exact sizes).
public struct BindingFunctions: ResourceBinding {
    /// A body reader (`ResourceBinding.read`).
    public typealias Read = @Sendable (Call, Target, PayloadBuilder) throws -> Void
    /// A planner (`ResourceResolver.resolve`).
    public typealias Resolve = @Sendable (Call, Match, PlanBuilder) throws -> Void
    /// A completer (`ResourceCompleter.complete`).
    public typealias Complete = @Sendable (Call, CompletionRequest, CompletionBuilder) throws -> Void
    /// A sizer (`ResourceSizeHinting.sizeHint`: target, payload bytes, is blob).
    public typealias SizeHint = @Sendable (Target, UInt64, Bool) -> UInt64?

    let readFn: Read
    let resolveFn: Resolve?
    let completeFn: Complete?
    let sizeHintFn: SizeHint?

    /// A binding of `read` and the optional closures.
    public init(resolve: Resolve? = nil, complete: Complete? = nil, sizeHint: SizeHint? = nil,
                read: @escaping Read)
    {
        readFn = read
        resolveFn = resolve
        completeFn = complete
        sizeHintFn = sizeHint
    }

    /// Runs the `read` closure.
    public func read(_ call: Call, _ target: Target, _ payload: PayloadBuilder) throws {
        try readFn(call, target, payload)
    }
}
