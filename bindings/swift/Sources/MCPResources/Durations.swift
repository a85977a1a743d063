// Swift Durations as the library's milliseconds.

/// A timeout in milliseconds, rounded up so that the library never gives
/// up before the caller asked; `nil` is 0 (no caller deadline), and a
/// positive duration below one millisecond is 1 ms (0 would mean "none").
/// Negative durations are refused.
func timeoutMilliseconds(_ d: Duration?) throws -> UInt64 {
    guard let d else { return 0 }
    let (seconds, attoseconds) = d.components
    if seconds < 0 || attoseconds < 0 { throw MCPRError.argument("negative timeout") }
    if seconds == 0 && attoseconds == 0 { return 1 }
    let perMs: Int64 = 1_000_000_000_000_000
    let (ms, over) = UInt64(seconds).multipliedReportingOverflow(by: 1000)
    if over { return UInt64.max }
    let extra = UInt64(attoseconds / perMs) + (attoseconds % perMs == 0 ? 0 : 1)
    let (total, over2) = ms.addingReportingOverflow(extra)
    return over2 ? UInt64.max : total
}

/// A cache TTL in milliseconds, rounded down (a hint never claims more
/// freshness than declared). Negative durations are refused.
func ttlMilliseconds(_ d: Duration) throws -> UInt64 {
    let (seconds, attoseconds) = d.components
    if seconds < 0 || attoseconds < 0 { throw MCPRError.argument("negative cache TTL") }
    let (ms, over) = UInt64(seconds).multipliedReportingOverflow(by: 1000)
    if over { return UInt64.max }
    let (total, over2) = ms.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000_000_000))
    return over2 ? UInt64.max : total
}

/// Milliseconds as a Duration (saturating).
func duration(milliseconds ms: UInt64) -> Duration {
    .milliseconds(Int64(clamping: ms))
}
