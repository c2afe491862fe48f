// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Testing

@testable import SyncCore

/// Issue 13 item 8: arithmetic on outside numbers saturates instead of trapping.
@Suite struct SaturatingTests {
    static let huge = UInt64.max

    @Test(
        arguments: [
            (0, 0, 0), (1, 2, 3), (huge, 1, huge), (huge, huge, huge), (huge - 1, 1, huge),
            (1 << 63, 1 << 63, huge),
        ] as [(UInt64, UInt64, UInt64)])
    func unsignedSumsStopAtTheTop(a: UInt64, b: UInt64, sum: UInt64) {
        #expect(Saturating.add(a, b) == sum)
        #expect(Saturating.sum([a, b]) == sum)
    }

    @Test(
        arguments: [(5, 3, 2), (3, 5, 0), (0, huge, 0), (huge, huge, 0), (huge, 0, huge)] as [(UInt64, UInt64, UInt64)])
    func unsignedDifferencesStopAtZero(a: UInt64, b: UInt64, difference: UInt64) {
        #expect(Saturating.subtract(a, b) == difference)
    }

    @Test(
        arguments: [
            // 2300-01-01T00:00:00Z (touch -d 2300-01-01) is past the year 2262 of Int64 nanoseconds.
            (10_413_792_000, 0, Int64.max), (1_700_000_000, 123, 1_700_000_000_000_000_123),
            (-10_413_792_000, 0, Int64.min), (0, 999_999_999, 999_999_999),
            (9_223_372_036, 854_775_807, Int64.max), (9_223_372_036, 854_775_808, Int64.max),
        ] as [(Int64, Int64, Int64)])
    func fileTimesInNanosecondsSaturate(seconds: Int64, nanoseconds: Int64, expected: Int64) {
        #expect(Saturating.nanoseconds(seconds: seconds, nanoseconds: nanoseconds) == expected)
    }

    @Test(
        arguments: [
            (0.0, 0), (-1.5, -1), (1.9, 1), (Double.nan, 0), (Double.infinity, Int64.max),
            (-Double.infinity, Int64.min), (9.3e18, Int64.max), (-9.3e18, Int64.min),
            (9_223_372_036_854_775_808.0, Int64.max), (-9_223_372_036_854_775_808.0, Int64.min),
        ] as [(Double, Int64)])
    func doublesBecomeTheNearestInteger(value: Double, expected: Int64) {
        #expect(Saturating.int64(value) == expected)
        #expect(Saturating.int(value) == Int(expected))
    }

    @Test(
        arguments: [
            (0.0, 0), (-5.0, 0), (Double.nan, 0), (3.7, 3), (1.9e19, UInt64.max), (Double.infinity, UInt64.max),
        ] as [(Double, UInt64)])
    func doublesBecomeTheNearestUnsigned(value: Double, expected: UInt64) {
        #expect(Saturating.uint64(value) == expected)
    }

    @Test func aFileTimeFarOutsideInt64StillDescribesItself() {
        #expect(FileTime(seconds: 1e30, granularity: .second).description == "\(Int64.max)s/second")
        #expect(FileTime(seconds: -.infinity, granularity: .day).description == "\(Int64.min)s/day")
        #expect(FileTime(seconds: .nan, granularity: .exact).description == "0s/exact")
    }
}
