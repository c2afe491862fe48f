// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// How finely a modification time is known: LIST gives days or minutes, MLSD seconds,
/// a local file system nanoseconds.
public enum TimeGranularity: Int, Sendable, Hashable, Comparable, Codable {
    case day = 0
    case minute = 1
    case second = 2
    case exact = 3

    /// The width of one unit, in seconds (0 for `exact`).
    public var seconds: Double {
        switch self {
        case .day: return 86_400
        case .minute: return 60
        case .second: return 1
        case .exact: return 0
        }
    }

    public static func < (lhs: TimeGranularity, rhs: TimeGranularity) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A modification time (an instant, UTC) and how finely it is known.
public struct FileTime: Sendable, Hashable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var seconds: Double
    /// How finely `seconds` is known.
    public var granularity: TimeGranularity

    public init(seconds: Double, granularity: TimeGranularity) {
        self.seconds = seconds
        self.granularity = granularity
    }

    public init(date: Date, granularity: TimeGranularity) {
        self.init(seconds: date.timeIntervalSince1970, granularity: granularity)
    }

    public var date: Date { Date(timeIntervalSince1970: seconds) }

    /// True when the two times can be the same instant, given the coarser granularity of the two.
    /// Exact times match within a millisecond (file systems and SQLite round differently).
    public func matches(_ other: FileTime) -> Bool {
        let unit = max(min(granularity, other.granularity).seconds, 0.001)
        return abs(seconds - other.seconds) < unit
    }

    public var description: String {
        "\(Saturating.int64(seconds.rounded(.down)))s/\(granularity)"
    }
}
