import Foundation
import SyncCore

/// Asks the device for the precise times of the files whose listed minute cannot tell a change
/// (`ListingPrecision`), so the plan compares and records seconds.
enum PreciseTimes {
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
        for path in paths {
            try cancellation.check()
            let answer: Date?
            do {
                answer = try remote.preciseModificationTime(remotePath(root: root, relative: path.string))
            } catch {
                continue  // this file keeps its listed time
            }
            guard let answer else { break }  // no MDTM on this server
            precise[path] = answer
        }
        return ListingPrecision.applying(precise, to: snapshot)
    }
}
