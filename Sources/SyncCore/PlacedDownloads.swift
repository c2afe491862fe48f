// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Downloads that a killed run put under their final names before their records were committed.
///
/// Every download has a partial row in the state before its first byte (the engine stores them
/// for the whole plan in one transaction), holding the remote size and time it was started for;
/// the row goes in the same transaction as the file's record. A local file whose size and time
/// are exactly those of a partial row's remote version (the engine sets the time from the
/// listing, to the millisecond here, whatever the listing's precision) was placed by that download: it is recorded as that version before planning, so a
/// later change on the device is a plain download, not a conflict with our own copy.
public enum PlacedDownloads {
    /// The records to store before planning a pull: one per partial row whose path holds a local
    /// file with the row's remote size and time, unless the record already says so.
    /// - Parameters:
    ///   - partials: the device's pull partial rows, by path (remote size and time as started).
    ///   - local: the device's local folder as scanned now.
    ///   - records: the records of the last sync, by path.
    public static func records(
        partials: [RelativePath: PartialTransfer], local: Snapshot, records: some RecordLookup
    ) -> [FileRecord] {
        var found: [FileRecord] = []
        for (path, partial) in partials {
            guard let size = partial.remoteSize, let remoteTime = partial.remoteModified,
                let here = local[path], here.kind == .file, here.size == size, let localTime = here.modified,
                abs(localTime.seconds - remoteTime.seconds) < 0.001
            else { continue }
            if let record = records[path], record.remoteSize == size,
                record.remoteModified.map(remoteTime.matches) == true, Comparison.localMatches(here, record)
            {
                continue
            }
            found.append(
                FileRecord(
                    path: path, remoteSize: size, remoteModified: remoteTime, localSize: size, localModified: localTime,
                    digest: here.digest))
        }
        return found.sorted { $0.path < $1.path }
    }
}
