// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Durations as people write them in the configuration and on the command line (CONTRACT.md
/// 0.2: `90s`, `15m`, `2h`, `7d`): a whole number followed by one unit letter, or a bare whole
/// number of seconds.
public enum DurationText {
    /// The longest duration accepted: 100 years, in seconds.
    public static let maximumSeconds = 100 * 366 * 86_400

    /// Seconds in `text` (`90s`, `15m`, `2h`, `7d`, `2w`, or `3600`); surrounding spaces are
    /// allowed, the unit letter's case is not significant. Nil for anything else, a negative
    /// number, or more than `maximumSeconds`.
    public static func seconds(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let last = trimmed.last else { return nil }
        var digits = Substring(trimmed)
        var unit = 1
        if !last.isNumber {
            switch last.lowercased() {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3_600
            case "d": unit = 86_400
            case "w": unit = 604_800
            default: return nil
            }
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let number = Int(digits)
        else { return nil }
        let (seconds, overflow) = number.multipliedReportingOverflow(by: unit)
        guard !overflow, seconds <= maximumSeconds else { return nil }
        return seconds
    }
}
