// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// A daily schedule of bandwidth limits (the `bwlimit` key, issue 19): `08:00,512k 18:00,off`
/// — at each time of day (24-hour `HH:MM`) the rate after the comma takes over (`ByteSizeText`
/// bytes per second, or `off` for none) until the next; before the first time of the day the
/// last one of the day before holds. Times are in `timeZone`: the device's `timezone` when
/// set, else the machine's.
public struct BandwidthSchedule: Sendable, Hashable {
    /// One change: from `minute` of the day (0...1439) on, `bytesPerSecond` (nil: no limit).
    public struct Change: Sendable, Hashable {
        public let minute: Int
        public let bytesPerSecond: Int64?
    }

    /// The changes, in the order of the day, at distinct minutes; at least one.
    public let changes: [Change]
    /// The zone the times of day are in.
    public var timeZone: TimeZone

    /// Most changes one schedule may hold.
    public static let maximumChanges = 48

    /// Why a schedule's text was refused: the part that is wrong, and what it should be.
    public struct Invalid: Error, Sendable, Hashable, CustomStringConvertible {
        /// One line, naming the part (`"'8:00,512k': the time must be HH:MM, 00:00 to 23:59"`).
        public let description: String
    }

    /// Reads `text` (space-separated `HH:MM,RATE` pairs, at most `maximumChanges`, no time
    /// twice); nil for anything else (`read` says why).
    public static func parse(_ text: String, timeZone: TimeZone) -> BandwidthSchedule? {
        try? read(text, timeZone: timeZone)
    }

    /// Reads `text` as `parse` does.
    /// - Throws: `Invalid` naming the first part that is wrong.
    public static func read(_ text: String, timeZone: TimeZone) throws(Invalid) -> BandwidthSchedule {
        let pairs = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard !pairs.isEmpty else { throw Invalid(description: "the schedule is empty") }
        guard pairs.count <= maximumChanges else {
            throw Invalid(description: "\(pairs.count) changes; at most \(maximumChanges)")
        }
        var changes: [Change] = []
        for pair in pairs {
            let shown = "'\(pair.prefix(40))'"
            let parts = pair.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2 else { throw Invalid(description: "\(shown): expected TIME,RATE like 08:00,512k") }
            guard let minute = minuteOfDay(parts[0]) else {
                throw Invalid(description: "\(shown): the time must be HH:MM, 00:00 to 23:59")
            }
            let rateText = String(parts[1])
            if rateText.lowercased() == "off" {
                changes.append(Change(minute: minute, bytesPerSecond: nil))
            } else if let rate = ByteSizeText.bytes(rateText), rate > 0 {
                changes.append(Change(minute: minute, bytesPerSecond: rate))
            } else {
                throw Invalid(description: "\(shown): the rate must be bytes per second like 512k or 2M, or off")
            }
            if changes.dropLast().contains(where: { $0.minute == minute }) {
                throw Invalid(description: "\(shown): \(parts[0]) is given twice")
            }
        }
        changes.sort { $0.minute < $1.minute }
        return BandwidthSchedule(changes: changes, timeZone: timeZone)
    }

    /// The bytes per second in force at `date` (nil: no limit).
    public func rate(at date: Date) -> Int64? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let fields = calendar.dateComponents([.hour, .minute], from: date)
        return rate(atMinute: (fields.hour ?? 0) * 60 + (fields.minute ?? 0))
    }

    /// The bytes per second in force at `minute` of the day (0...1439).
    public func rate(atMinute minute: Int) -> Int64? {
        (changes.last { $0.minute <= minute } ?? changes[changes.count - 1]).bytesPerSecond
    }

    /// `HH:MM` (00:00 to 23:59) as minutes since midnight.
    private static func minuteOfDay(_ text: Substring) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute)
        else { return nil }
        return hour * 60 + minute
    }
}
