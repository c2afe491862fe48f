// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// Small helpers on bytes of one listing line.
typealias Line = UnsafeBufferPointer<UInt8>

enum Byte {
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39

    @inline(__always) static func isBlank(_ b: UInt8) -> Bool { b == space || b == tab }
    @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b &- zero < 10 }
    @inline(__always) static func lower(_ b: UInt8) -> UInt8 { b &- 0x41 < 26 ? b | 0x20 : b }
}

/// The whitespace-separated tokens of a line, as byte ranges; one buffer reused from line to line
/// (raw storage: no copy-on-write or exclusivity checks in the hot loop).
final class Tokens {
    static let capacity = 32
    let starts = UnsafeMutablePointer<Int>.allocate(capacity: Tokens.capacity)
    let ends = UnsafeMutablePointer<Int>.allocate(capacity: Tokens.capacity)
    private(set) var count = 0

    deinit {
        starts.deallocate()
        ends.deallocate()
    }

    /// Splits `line` at runs of spaces and tabs, keeping at most `limit` tokens (≤ 32).
    func split(_ line: Line, limit: Int) {
        var found = 0
        var i = 0
        let n = line.count
        let limit = min(limit, Tokens.capacity)
        while i < n && found < limit {
            while i < n && Byte.isBlank(line[i]) { i += 1 }
            if i == n { break }
            let s = i
            while i < n && !Byte.isBlank(line[i]) { i += 1 }
            starts[found] = s
            ends[found] = i
            found += 1
        }
        count = found
    }

    @inline(__always) func length(_ k: Int) -> Int { ends[k] - starts[k] }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// The bytes `from..<to` as a buffer of their own.
    @inline(__always) func slice(_ from: Int, _ to: Int) -> Line {
        Line(rebasing: self[from..<to])
    }

    /// The value of the decimal digits `from..<to`, or nil when a byte is not a digit, the range is
    /// empty or the value does not fit in UInt64.
    func decimal(_ from: Int, _ to: Int) -> UInt64? {
        guard from < to else { return nil }
        var value: UInt64 = 0
        for i in from..<to {
            let d = self[i] &- Byte.zero
            guard d < 10 else { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(UInt64(d))
            if o1 || o2 { return nil }
            value = a
        }
        return value
    }

    /// A small decimal number (at most 9 digits) at `from..<to`, or nil.
    @inline(__always) func smallNumber(_ from: Int, _ to: Int) -> Int? {
        guard to - from <= 9, let v = decimal(from, to) else { return nil }
        return Int(v)
    }

    /// True when the bytes `from..<to` equal `ascii`, compared case-insensitively.
    func equalsIgnoringCase(_ from: Int, _ to: Int, _ ascii: StaticString) -> Bool {
        guard to - from == ascii.utf8CodeUnitCount else { return false }
        let p = ascii.utf8Start
        for k in 0..<(to - from) where Byte.lower(self[from + k]) != Byte.lower(p[k]) { return false }
        return true
    }
}
