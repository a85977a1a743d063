// A call's `context` (any Sendable value) reaches its callbacks through
// the C `request_data` pointer as a number, never as a pointer: the value
// lives in this table for the duration of the call. A callback abandoned
// on an executor may run after its call returned; it then finds nothing
// (nil) instead of a freed object.
import Synchronization

final class RequestContexts: Sendable {
    static let shared = RequestContexts()

    private struct State {
        var next: UInt = 1
        var values: [UInt: any Sendable] = [:]
    }

    private let state = Mutex(State())

    /// Runs `body` with `value` registered (its key as `request_data`);
    /// a nil value registers nothing and passes NULL.
    func with<R>(_ value: (any Sendable)?, _ body: (UnsafeMutableRawPointer?) throws -> R) rethrows -> R {
        let data = enter(value)
        defer { leave(data) }
        return try body(data)
    }

    /// Registers `value` until `leave` (an asynchronous call's context,
    /// which lives until its done callback): its key as `request_data`, or
    /// NULL for nil.
    func enter(_ value: (any Sendable)?) -> UnsafeMutableRawPointer? {
        guard let value else { return nil }
        let key = state.withLock { s -> UInt in
            let k = s.next
            s.next &+= 1
            if s.next == 0 { s.next = 1 }
            s.values[k] = value
            return k
        }
        return UnsafeMutableRawPointer(bitPattern: key)
    }

    /// Forgets what `enter` registered under `data` (NULL: nothing).
    func leave(_ data: UnsafeMutableRawPointer?) {
        guard let data else { return }
        _ = state.withLock { $0.values.removeValue(forKey: UInt(bitPattern: data)) }
    }

    func lookup(_ data: UnsafeMutableRawPointer?) -> (any Sendable)? {
        guard let data else { return nil }
        let key = UInt(bitPattern: data)
        return state.withLock { $0.values[key] }
    }
}
