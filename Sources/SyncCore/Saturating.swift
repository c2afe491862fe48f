// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// Arithmetic on numbers that come from outside (sizes, offsets and times a server lists or a
/// disk reports, progress totals, rates): it never traps. A sum that does not fit is the
/// largest value, a difference below zero is zero, a `Double` out of range is the nearest end.
public enum Saturating {
    /// `a + b`, or `UInt64.max` when the sum does not fit (two files listed as 2^64 - 1 bytes).
    public static func add(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? UInt64.max : sum
    }

    /// The sum of `values`, `UInt64.max` once it does not fit.
    public static func sum<S: Sequence>(_ values: S) -> UInt64 where S.Element == UInt64 {
        values.reduce(0, add)
    }

    /// `a - b`, or 0 when `b` is larger.
    public static func subtract(_ a: UInt64, _ b: UInt64) -> UInt64 {
        a >= b ? a - b : 0
    }

    /// `a + b` for signed values, limited to `Int64.min...Int64.max`.
    public static func add(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b < 0 ? Int64.min : Int64.max) : sum
    }

    /// `a * b` for signed values, limited to `Int64.min...Int64.max`.
    public static func multiply(_ a: Int64, _ b: Int64) -> Int64 {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? ((a < 0) != (b < 0) ? Int64.min : Int64.max) : product
    }

    /// Nanoseconds of `seconds` and `nanoseconds` (a `timespec`, UTC since 1970), limited to
    /// the range of `Int64` (about the years 1677 to 2262).
    public static func nanoseconds(seconds: Int64, nanoseconds: Int64) -> Int64 {
        add(multiply(seconds, 1_000_000_000), nanoseconds)
    }

    /// `value` rounded toward zero as an `Int64`: NaN is 0, values beyond the range the nearest end.
    public static func int64(_ value: Double) -> Int64 {
        guard !value.isNaN else { return 0 }
        // 2^63 is the first Double above Int64.max; -2^63 is exactly Int64.min.
        if value >= 9_223_372_036_854_775_808.0 { return Int64.max }
        if value <= -9_223_372_036_854_775_808.0 { return Int64.min }
        return Int64(value)
    }

    /// `value` rounded toward zero as an `Int`: NaN is 0, values beyond the range the nearest end.
    public static func int(_ value: Double) -> Int {
        Int(int64(value))
    }

    /// `value` rounded toward zero as a `UInt64`: NaN and negatives are 0, too large is `UInt64.max`.
    public static func uint64(_ value: Double) -> UInt64 {
        guard !value.isNaN, value > 0 else { return 0 }
        // 2^64 is the first Double above UInt64.max.
        if value >= 18_446_744_073_709_551_616.0 { return UInt64.max }
        return UInt64(value)
    }
}
