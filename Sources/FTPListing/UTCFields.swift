// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// An instant split into its UTC calendar fields (proleptic Gregorian), to the whole second:
/// what MDTM/MFMT time values (RFC 3659 §2.3) and ISO 8601 output are written from.
public struct UTCFields: Sendable, Equatable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int

    /// The fields of `date`, rounded down to the second. Instants beyond ±10^11 s (about
    /// ±3,000 years) are clamped there; a NaN instant (a damaged record) is 1970-01-01T00:00:00Z.
    public init(_ date: Date) {
        let interval = date.timeIntervalSince1970.isNaN ? 0 : date.timeIntervalSince1970
        let seconds = Int(min(max(interval, -1e11), 1e11).rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        (year, month, day) = CivilTime.date(days: days)
        hour = secondOfDay / 3_600
        minute = secondOfDay / 60 % 60
        second = secondOfDay % 60
    }

    /// `value` as decimal digits, zero-padded to `width`.
    public static func padded(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    /// `YYYYMMDDHHMMSS`: an RFC 3659 time value.
    public var timeVal: String {
        Self.padded(year, 4) + Self.padded(month, 2) + Self.padded(day, 2) + Self.padded(hour, 2)
            + Self.padded(minute, 2) + Self.padded(second, 2)
    }

    /// `YYYY-MM-DD`.
    public var isoDate: String { Self.padded(year, 4) + "-" + Self.padded(month, 2) + "-" + Self.padded(day, 2) }

    /// `YYYY-MM-DDTHH:MM:SSZ`: ISO 8601 extended format, UTC, whole seconds (reports, logs,
    /// `status --json`).
    public var iso8601: String { isoDate + "T" + isoClock + "Z" }

    /// `YYYYMMDDTHHMMSSZ`: ISO 8601 basic format, UTC, whole seconds; no colons, so the text
    /// is a valid file name on every file system (conflict copies, trash folders).
    public var basicStamp: String {
        Self.padded(year, 4) + Self.padded(month, 2) + Self.padded(day, 2) + "T" + Self.padded(hour, 2)
            + Self.padded(minute, 2) + Self.padded(second, 2) + "Z"
    }

    /// The instant a `basicStamp` names (`20261202T030000Z`: a trash folder's name); nil for any
    /// other text: exactly 16 ASCII characters, a real calendar day, hours 00–23, minutes and
    /// seconds 00–59.
    public static func date(basicStamp text: String) -> Date? {
        let bytes = Array(text.utf8.prefix(17))
        guard bytes.count == 16, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "Z") else { return nil }
        func number(_ start: Int, _ end: Int) -> Int? {
            var value = 0
            for byte in bytes[start..<end] {
                let digit = byte &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(4, 6), let day = number(6, 8), let hour = number(9, 11),
            let minute = number(11, 13), let second = number(13, 15),
            CivilTime.isValid(year: year, month: month, day: day), hour < 24, minute < 60, second < 60
        else { return nil }
        let seconds = CivilTime.seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return Date(timeIntervalSince1970: Double(seconds))
    }

    /// `HH:MM:SS`.
    public var isoClock: String { Self.padded(hour, 2) + ":" + Self.padded(minute, 2) + ":" + Self.padded(second, 2) }
}
