// Strings across the C ABI: Swift strings lent to the library as mcpr_str
// (pointer and length, never copied here), and the library's borrowed
// mcpr_str results copied into Swift strings.
import CMCPResources

/// Runs `body` with `s` as an `mcpr_str` borrowed for the duration of the
/// call (the library copies whatever it keeps).
@inline(__always)
func withStr<R>(_ s: String, _ body: (mcpr_str) throws -> R) rethrows -> R {
    var s = s
    return try s.withUTF8 { buf in
        try body(mcpr_str(ptr: UnsafeRawPointer(buf.baseAddress)?.assumingMemoryBound(to: CChar.self), len: buf.count))
    }
}

/// Two strings at once (see `withStr`).
@inline(__always)
func withStrs<R>(_ a: String, _ b: String, _ body: (mcpr_str, mcpr_str) throws -> R) rethrows -> R {
    try withStr(a) { ca in try withStr(b) { cb in try body(ca, cb) } }
}

/// Three strings at once (see `withStr`).
@inline(__always)
func withStrs<R>(_ a: String, _ b: String, _ c: String, _ body: (mcpr_str, mcpr_str, mcpr_str) throws -> R) rethrows
    -> R
{
    try withStr(a) { ca in try withStr(b) { cb in try withStr(c) { cc in try body(ca, cb, cc) } } }
}

/// Runs `body` with raw bytes as an `mcpr_str`.
@inline(__always)
func withStr<R>(bytes: UnsafeRawBufferPointer, _ body: (mcpr_str) throws -> R) rethrows -> R {
    try body(mcpr_str(ptr: bytes.baseAddress?.assumingMemoryBound(to: CChar.self), len: bytes.count))
}

extension String {
    /// A copy of a borrowed `mcpr_str` (invalid UTF-8, which the library
    /// never returns, would become U+FFFD).
    @inline(__always)
    init(_ s: mcpr_str) {
        guard let p = s.ptr, s.len > 0 else {
            self = ""
            return
        }
        self = String(decoding: UnsafeRawBufferPointer(start: p, count: s.len), as: UTF8.self)
    }
}

/// Runs `body` with the bytes of a borrowed `mcpr_str`.
@inline(__always)
func withBytes<R>(_ s: mcpr_str, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    guard let p = s.ptr, s.len > 0 else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
    return try body(UnsafeRawBufferPointer(start: p, count: s.len))
}
