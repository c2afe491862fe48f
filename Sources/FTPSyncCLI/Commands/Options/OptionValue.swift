// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import ArgumentParser
import Foundation
import SyncConfig
import SyncCore

/// The checks of option values: each failure says what the option takes (the parser prints it
/// after the value and the option's name, one line; exit 2).
enum OptionValue {
    /// `text` as a whole number within `range`.
    /// - Throws: `ValidationError` with `message`.
    static func wholeNumber(_ text: String, in range: ClosedRange<Int>, _ message: String) throws -> Int {
        guard let value = Int(text), range.contains(value) else { throw ValidationError(message) }
        return value
    }

    /// `text` as one of the values of `Value` (a conflict policy, a log format), case ignored.
    /// - Throws: `ValidationError` naming the valid values.
    static func choice<Value: CaseIterable & RawRepresentable>(_ text: String) throws -> Value
    where Value.RawValue == String {
        guard let value = Value(rawValue: text.lowercased()) else {
            let valid = Value.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("expected one of \(valid)")
        }
        return value
    }

    /// `text` as a glob pattern (`--include`, `--exclude`): one that `FilterRules` takes (slashes
    /// and `./` alone name nothing, as in the configuration's `include` and `exclude`).
    /// - Throws: `ValidationError` saying what is wrong.
    static func pattern(_ text: String) throws -> String {
        do {
            _ = try FilterRules(excluding: [text])
        } catch {
            let what =
                error.tooManyAlternatives
                ? "one with fewer {a,b} alternatives (at most \(BraceAlternatives.maximumCount) patterns from one,"
                    + " \(BraceAlternatives.maximumGroups) groups, \(BraceAlternatives.maximumLength) characters)"
                : text.isEmpty ? "not an empty one" : "not one that names no path ('\(text)')"
            throw ValidationError("expected a glob pattern such as '*.tmp' or 'DCIM/**', \(what)")
        }
        return text
    }

    /// `text` as a duration (`DurationText`: `90s`, `15m`, `6h`, `7d`, `2w`, or seconds), in seconds.
    /// - Throws: `ValidationError` giving examples.
    static func duration(_ text: String) throws -> Int {
        guard let seconds = DurationText.seconds(text) else {
            throw ValidationError("expected a duration such as 90s, 15m, 6h, 7d or 2w")
        }
        return seconds
    }

    /// `text` as a rate in bytes per second (`ByteSizeText`: `512k`, `2M`, `1.5M`), or 0 for
    /// `off` or 0 (no limit, as the configuration's `bwlimit` key reads them).
    /// - Throws: `ValidationError` giving examples.
    static func rate(_ text: String) throws -> Int64 {
        if text.trimmingCharacters(in: .whitespaces).lowercased() == "off" { return 0 }
        let rate = try bytes(text, atLeast: 0, "expected bytes per second such as 512k, 2M or 1.5M, or off")
        // 0.4 or 0.0001k would round to "no cap": only a plain 0 means that.
        guard rate > 0 || !ByteSizeText.hasNonZeroDigit(text) else {
            throw ValidationError("expected at least 1 byte per second, or off (or 0) for no cap")
        }
        return rate
    }

    /// `text` as the size of a run cap (`ByteSizeText`: `500M`, `2G`, or bytes), at least 1 byte.
    /// - Throws: `ValidationError` giving examples.
    static func capSize(_ text: String) throws -> UInt64 {
        UInt64(try bytes(text, atLeast: 1, "expected a size of at least 1 byte such as 500M, 2G or 1.5T"))
    }

    /// `text` as the duration of a run cap (`duration(_:)`), at least 1 second.
    /// - Throws: `ValidationError` giving examples.
    static func capDuration(_ text: String) throws -> Int {
        let seconds = try duration(text)
        guard seconds > 0 else {
            throw ValidationError("expected a duration of at least 1 second such as 90s, 2h or 6h")
        }
        return seconds
    }

    /// `text` as a size (`ByteSizeText`: `4096`, `512k`, `10M`, `1.5G`), in bytes.
    /// - Throws: `ValidationError` giving examples.
    static func size(_ text: String) throws -> Int64 {
        try bytes(text, atLeast: 0, "expected a size such as 4096, 512k, 10M or 1.5G")
    }

    /// `text` as bytes (`ByteSizeText`), at least `minimum`.
    /// - Throws: `ValidationError` with `message`.
    private static func bytes(_ text: String, atLeast minimum: Int64, _ message: String) throws -> Int64 {
        guard let bytes = ByteSizeText.bytes(text), bytes >= minimum else { throw ValidationError(message) }
        return bytes
    }
}
