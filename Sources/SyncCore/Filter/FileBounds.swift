// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The size and age bounds of the files a run sees (`min_size`, `max_size`, `max_age` and their
/// options). Pure: the clock comes in as a parameter.
///
/// A bound applies to files only, on each side with that side's size and time; a file whose
/// size (or time) is not known is not left out by that bound. The walks leave a path out on
/// both sides when either side's file is out of bounds: it is neither copied nor deleted, and
/// its record stays.
public struct FileBounds: Sendable, Hashable {
    /// Bytes: a smaller file is left out; nil: no lower bound.
    public var minimumSize: UInt64?
    /// Bytes: a larger file is left out; nil: no upper bound.
    public var maximumSize: UInt64?
    /// Seconds: a file modified longer than this before `now` is left out; nil: no bound.
    public var maximumAge: Double?

    /// Bounds as given; nil for a bound not set.
    public init(minimumSize: UInt64? = nil, maximumSize: UInt64? = nil, maximumAge: Double? = nil) {
        self.minimumSize = minimumSize
        self.maximumSize = maximumSize
        self.maximumAge = maximumAge
    }

    /// True when no bound is set.
    public var isEmpty: Bool { minimumSize == nil && maximumSize == nil && maximumAge == nil }

    /// Why the file `entry` is out of bounds, as the end of a sentence (`"larger than 10 MiB"`),
    /// or nil when it is within them (folders and other kinds always are).
    /// - Parameter now: the clock (UTC) ages are measured against.
    public func excludes(_ entry: SnapshotEntry, now: Date) -> String? {
        guard entry.kind == .file else { return nil }
        return excludesFile(size: entry.size, modified: entry.modified?.seconds, now: now)
    }

    /// Why a file of `size` bytes modified at `modified` (seconds since 1970, UTC) is out of
    /// bounds, or nil; nil for a value means it is not known.
    public func excludesFile(size: UInt64?, modified: Double?, now: Date) -> String? {
        if let size {
            if let minimumSize, size < minimumSize { return "smaller than min_size (\(minimumSize) bytes)" }
            if let maximumSize, size > maximumSize { return "larger than max_size (\(maximumSize) bytes)" }
        }
        if let maximumAge, let modified, now.timeIntervalSince1970 - modified > maximumAge {
            return "older than max_age (\(Int(exactly: maximumAge.rounded(.down)) ?? 0) s)"
        }
        return nil
    }
}
