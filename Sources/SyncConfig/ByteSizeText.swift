// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Sizes and rates as people write them in the configuration and on the command line
/// (CONTRACT.md 0.2: `512k`, `2M`, `1.5M`): a number, optionally with a decimal fraction,
/// followed by an optional unit — `k`, `M`, `G`, `T` in powers of 1,024 (as rclone and lftp
/// read them), with an optional `B` or `iB` after it (`512KiB`, `2MB`). A bare number is bytes.
public enum ByteSizeText {
    /// The largest size accepted: 1 PiB (2⁵⁰ bytes).
    public static let maximumBytes: Int64 = 1 << 50

    /// Bytes in `text` (`4096`, `512k`, `1.5M`, `2GiB`), rounded down to a whole byte;
    /// surrounding spaces are allowed, the unit letter's case is not significant. Nil for
    /// anything else, a negative number, or more than `maximumBytes`.
    public static func bytes(_ text: String) -> Int64? {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        if rest.count > 1, rest.last == "B" || rest.last == "b" {
            rest = rest.dropLast()
            if rest.last == "i" { rest = rest.dropLast() }
        }
        var unitShift: Int64 = 0
        if let last = rest.last, !last.isNumber {
            switch last.lowercased() {
            case "k": unitShift = 10
            case "m": unitShift = 20
            case "g": unitShift = 30
            case "t": unitShift = 40
            default: return nil
            }
            rest = rest.dropLast()
        }
        let parts = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.count <= 16, isDigits(whole) else { return nil }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard fraction.count <= 6, isDigits(fraction), parts.count == 1 || !fraction.isEmpty,
            let wholeNumber = Int64(whole)
        else { return nil }
        let unit = Int64(1) << unitShift
        let (wholeBytes, overflow) = wholeNumber.multipliedReportingOverflow(by: unit)
        guard !overflow, wholeBytes <= maximumBytes else { return nil }
        var fractionBytes: Int64 = 0
        if let fractionNumber = Int64(fraction), fractionNumber > 0 {
            var scale: Int64 = 1
            for _ in fraction { scale *= 10 }
            // unit ≤ 2⁴⁰ and fractionNumber < 10⁶ < 2²⁰: the product stays below 2⁶⁰.
            fractionBytes = fractionNumber * unit / scale
        }
        let total = wholeBytes + fractionBytes
        return total <= maximumBytes ? total : nil
    }

    /// True when `text` holds a digit other than 0: a size that reads as 0 bytes though it
    /// was not written as zero (`0.4`, `0.0001k`) was rounded down to nothing.
    public static func hasNonZeroDigit(_ text: String) -> Bool {
        text.contains { $0.isASCII && $0.isNumber && $0 != "0" }
    }

    private static func isDigits(_ text: Substring) -> Bool {
        text.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
