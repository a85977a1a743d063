// The raw text of a JSON object's top-level members, so that `params` goes
// to the library byte for byte and `id` comes back exactly as the client
// sent it. Run only on text that JSONSerialization accepted, so the scan
// can trust its structure.
import Foundation

enum RawJSON {
    /// The byte range of each top-level member's value ("key" -> range);
    /// a key given twice keeps its last value, as JSONSerialization does.
    static func members(_ b: [UInt8]) -> [String: Range<Int>] {
        var out: [String: Range<Int>] = [:]
        var i = skipSpace(b, 0)
        guard i < b.count, b[i] == UInt8(ascii: "{") else { return out }
        i = skipSpace(b, i + 1)
        while i < b.count, b[i] == UInt8(ascii: "\"") {
            let keyEnd = skipString(b, i)
            let key = decodeKey(b[i..<keyEnd])
            i = skipSpace(b, keyEnd)
            guard i < b.count, b[i] == UInt8(ascii: ":") else { return out }
            let start = skipSpace(b, i + 1)
            let end = skipValue(b, start)
            out[key] = start..<end
            i = skipSpace(b, end)
            if i < b.count, b[i] == UInt8(ascii: ",") { i = skipSpace(b, i + 1) }
        }
        return out
    }

    private static func skipSpace(_ b: [UInt8], _ from: Int) -> Int {
        var i = from
        while i < b.count, [0x20, 0x09, 0x0A, 0x0D].contains(b[i]) { i += 1 }
        return i
    }

    /// The index just past the string starting at `from` (its quote).
    private static func skipString(_ b: [UInt8], _ from: Int) -> Int {
        var i = from + 1
        while i < b.count {
            if b[i] == UInt8(ascii: "\\") {
                i += 2
            } else if b[i] == UInt8(ascii: "\"") {
                return i + 1
            } else {
                i += 1
            }
        }
        return b.count
    }

    /// The index just past the value starting at `from`.
    private static func skipValue(_ b: [UInt8], _ from: Int) -> Int {
        guard from < b.count else { return from }
        switch b[from] {
        case UInt8(ascii: "\""):
            return skipString(b, from)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var i = from
            while i < b.count {
                switch b[i] {
                case UInt8(ascii: "\""):
                    i = skipString(b, i)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return i + 1 }
                default:
                    break
                }
                i += 1
            }
            return b.count
        default:  // number, true, false, null
            var i = from
            while i < b.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), 0x20, 0x09, 0x0A, 0x0D].contains(b[i]) { i += 1 }
            return i
        }
    }

    private static func decodeKey(_ quoted: ArraySlice<UInt8>) -> String {
        if !quoted.contains(UInt8(ascii: "\\")) { return String(decoding: quoted.dropFirst().dropLast(), as: UTF8.self) }
        let s = try? JSONSerialization.jsonObject(with: Data(quoted), options: .fragmentsAllowed) as? String
        return s ?? ""
    }
}
