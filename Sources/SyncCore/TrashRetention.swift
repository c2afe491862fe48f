// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Which folders of pull's trash (`<local>/.ftpsync/trash/<UTC stamp>/`) a pull removes at its
/// end (`trash_retention`). Pure: the clock and the folder's stamp are given.
///
/// A folder's age is read from the stamp in its name (the UTC second its run's device began),
/// never from its modification time, which a copy, a restore or a file moved in changes.
public enum TrashRetention {
    /// What becomes of one folder of the trash.
    public enum Verdict: Sendable, Hashable {
        /// Younger than the retention, kept forever (retention 0), or possibly this run's.
        case keep
        /// Older than the retention: removed with all it holds.
        case remove
        /// Its name is not a stamp: not the trash's, left alone.
        case notAStamp
    }

    /// The verdict on the trash folder whose name gives `stamp`.
    /// - Parameters:
    ///   - stamp: the instant the folder's name gives (`UTCFields.date(basicStamp:)`); nil when
    ///     the name is not a stamp.
    ///   - now: the time of the decision.
    ///   - runStarted: when this run began. Stamps are whole seconds (rounded down), so a
    ///     folder stamped at or after the second the run began may hold what this run moved
    ///     there, and is kept whatever the retention — also a stamp in the future (a clock set
    ///     back).
    ///   - retentionSeconds: how long a folder is kept, in seconds; 0 (or less) keeps every one.
    /// - Returns: `.remove` only when the folder is older than `retentionSeconds` at `now`.
    public static func verdict(stamp: Date?, now: Date, runStarted: Date, retentionSeconds: Int) -> Verdict {
        guard let stamp else { return .notAStamp }
        guard retentionSeconds > 0 else { return .keep }
        guard stamp.timeIntervalSince1970 < runStarted.timeIntervalSince1970.rounded(.down) else { return .keep }
        return now.timeIntervalSince(stamp) > Double(retentionSeconds) ? .remove : .keep
    }
}
