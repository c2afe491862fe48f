// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Nanoseconds since 1970-01-01T00:00:00Z (UTC) of a file-system time, saturated to the range
/// of `Int64` (about the years 1677 to 2262), so a file stamped far outside it cannot crash a run.
func nanoseconds(_ time: timespec) -> Int64 {
    let (product, overflow) = Int64(time.tv_sec).multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return time.tv_sec < 0 ? Int64.min : Int64.max }
    let (sum, overflowSum) = product.addingReportingOverflow(Int64(time.tv_nsec))
    return overflowSum ? Int64.max : sum
}

/// Whole seconds and nanoseconds of `seconds` (UTC, since 1970), with the seconds limited to
/// ±10^11 (about ±3,000 years) so an absurd listed time becomes an extreme but valid one.
func timespecParts(_ seconds: Double) -> (seconds: Int64, nanoseconds: Int) {
    guard seconds.isFinite else { return (0, 0) }
    let clamped = min(max(seconds, -1e11), 1e11)
    let whole = clamped.rounded(.down)
    var nanos = Int(((clamped - whole) * 1e9).rounded())
    var wholeSeconds = Int64(whole)
    if nanos >= 1_000_000_000 {
        nanos -= 1_000_000_000
        wholeSeconds += 1
    }
    return (wholeSeconds, max(0, nanos))
}
