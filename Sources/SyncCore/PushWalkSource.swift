import Foundation

/// What the folder walk of a push (`PushWalk`) reads, one folder at a time: the local folder
/// (the source), the device's listing, the records. The engine reads the disk, the device and
/// the state; a test serves snapshots.
public protocol PushWalkSource {
    /// The entries directly in the local folder `folder`, files with the digests a move or a
    /// touched file needs (unknown: what could not be read).
    /// - Throws: what makes the device fail (the local root cannot be read).
    func localFolder(_ folder: RelativePath) throws -> Snapshot
    /// The device's listing of `folder` (a folder the device lists), in any order.
    /// - Throws: what makes the device fail (the root cannot be listed, a listing budget).
    func listing(of folder: RelativePath) throws -> FolderListing
    /// The records whose path lies directly in `folder`.
    /// - Throws: when the state cannot be read.
    func records(in folder: RelativePath) throws -> [FileRecord]
    /// The subfolders of `folder` holding a record somewhere below them.
    /// - Throws: when the state cannot be read.
    func recordFolders(in folder: RelativePath) throws -> [RelativePath]
    /// True when a record lies somewhere below `folder`.
    /// - Throws: when the state cannot be read.
    func hasRecords(below folder: RelativePath) throws -> Bool
    /// True when a record with a digest holds a local file of `size` bytes: only then can a new
    /// local file of that size be a move (`RenameDetection.localMoves`).
    /// - Throws: when the state cannot be read.
    func hasRecord(localSize size: UInt64) throws -> Bool
}
