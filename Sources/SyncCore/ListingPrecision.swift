// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Which listed times are too coarse to tell a change, and how a precise time (MDTM, RFC 3659
/// §3) replaces them. Pure: the clock and the last sync's time come in as values.
///
/// LIST gives minutes. A file rewritten with the same size in the minute it was pulled lists
/// the same as recorded, so the listing alone would miss the change for good. Such a file's
/// time is asked with MDTM (whole seconds) and the precise time compared and recorded:
/// - a file whose listed minute is still open now (or was less than `margin` ago): the record
///   this run writes needs the seconds, or the next run cannot tell either;
/// - a file that lists as recorded, whose record holds seconds (it was asked because its minute
///   was open then) and whose minute had not closed `margin` before the last successful sync
///   (every such record when no sync completed yet).
/// Day-precise times (old LIST lines) and files with second or finer times are never asked.
public enum ListingPrecision {
    /// Seconds of clock difference between the server and us tolerated when judging whether a
    /// minute is closed.
    public static let margin: Double = 60

    /// The files of `remote` whose times need MDTM, in path order.
    /// - Parameters:
    ///   - records: the last successful sync of this device, by path.
    ///   - lastSync: when the last successful sync of this device ended (UTC), nil for none.
    ///   - now: the current time (UTC).
    public static func needsPreciseTime(
        remote: Snapshot, records: some RecordLookup, lastSync: Date?, now: Date
    ) -> [RelativePath] {
        var paths: [RelativePath] = []
        for entry in remote.entries where entry.kind == .file {
            guard let listed = entry.modified, listed.granularity == .minute else { continue }
            let closes = (listed.seconds / 60).rounded(.down) * 60 + 60 + margin
            if closes > now.timeIntervalSince1970 {
                paths.append(entry.path)
                continue
            }
            guard let record = records[entry.path], let recorded = record.remoteModified,
                recorded.granularity >= .second, Comparison.remoteMatches(entry, record)
            else { continue }
            if lastSync.map({ closes > $0.timeIntervalSince1970 }) ?? true { paths.append(entry.path) }
        }
        return paths
    }

    /// A listed minute made precise by an MDTM answer: the minute from the listing, the second
    /// within it from the answer. Any other listed time, or an answer that is not finite, as it is.
    public static func refined(_ listed: FileTime, answer date: Date) -> FileTime {
        let answer = date.timeIntervalSince1970
        guard listed.granularity == .minute, answer.isFinite else { return listed }
        let withinMinute = answer - (answer / 60).rounded(.down) * 60
        let minute = (listed.seconds / 60).rounded(.down) * 60
        return FileTime(seconds: minute + withinMinute.rounded(.down), granularity: .second)
    }

    /// `remote` with the precise times of `precise` (MDTM answers, UTC) in place of the listed
    /// minutes. The seconds within the minute are taken from the answer and the minute from the
    /// listing, so a device whose zone is set off by whole minutes or hours still compares with
    /// its own listings. An answer for a path that is not a minute-precise file is ignored.
    public static func applying(_ precise: [RelativePath: Date], to remote: Snapshot) -> Snapshot {
        guard !precise.isEmpty else { return remote }
        var entries = Array(remote.entries)
        for index in entries.indices {
            guard let date = precise[entries[index].path], let listed = entries[index].modified,
                entries[index].kind == .file
            else { continue }
            entries[index].modified = refined(listed, answer: date)
        }
        var result = Snapshot(entries, unknown: remote.unknown)
        result.hiddenUnknown = remote.hiddenUnknown
        result.leftOut = remote.leftOut
        return result
    }
}
