// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// Asks the device for the precise times of the files whose listed minute cannot tell a change
/// (`ListingPrecision`), so the plan compares and records seconds.
enum PreciseTimes {
    /// Files asked at once (one pipelined batch or a few).
    static let batchSize = 64

    /// `snapshot` with MDTM times for the files `ListingPrecision.needsPreciseTime` names.
    /// A file the server will not give a time for keeps its listed one; a server without MDTM is
    /// asked nothing more after its first nil.
    /// - Parameters:
    ///   - root: the device's remote root, to which the snapshot's paths are relative.
    ///   - lastSync: when the device's last successful sync ended (UTC), nil for none.
    ///   - now: the current time (UTC).
    ///   - cancellation: the run's stop request, checked before each question.
    /// - Throws: `RunInterrupted` once `cancellation` is cancelled.
    static func resolve(
        _ snapshot: Snapshot, remote: RemoteFileSystem, root: String, records: some RecordLookup,
        lastSync: Date?, now: Date, cancellation: CancellationToken
    ) throws -> Snapshot {
        let paths = ListingPrecision.needsPreciseTime(
            remote: snapshot, records: records, lastSync: lastSync, now: now)
        var precise: [RelativePath: Date] = [:]
        var start = 0
        // A batch at a time (a transport may pipeline it), the stop request checked between.
        while start < paths.count {
            try cancellation.check()
            let batch = Array(paths[start..<min(paths.count, start + batchSize)])
            start += batch.count
            let answers: [Result<Date, Error>]?
            do {
                answers = try remote.preciseModificationTimes(batch.map { remotePath(root: root, relative: $0.string) })
            } catch {
                continue  // these files keep their listed times
            }
            guard let answers else { break }  // no MDTM on this server
            for (path, answer) in zip(batch, answers) {
                if case .success(let date) = answer { precise[path] = date }  // else: its listed time
            }
        }
        return ListingPrecision.applying(precise, to: snapshot)
    }
}
