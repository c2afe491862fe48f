import Foundation

/// What the folder walk of a pull (`PullWalk`) reads, one folder at a time: the device's
/// listing, the local folder, the records; and what it asks of the state and the device.
/// The engine reads the device, the disk and the state; a test serves snapshots.
public protocol PullWalkSource {
    /// The device's listing of `folder` (a folder the device lists), in any order.
    /// - Throws: what makes the device fail (the root cannot be listed, a listing budget).
    func listing(of folder: RelativePath) throws -> FolderListing
    /// The entries directly in the local folder `folder` (unknown: what could not be read).
    /// - Throws: what makes the device fail (the local root cannot be read).
    func localFolder(_ folder: RelativePath) throws -> Snapshot
    /// The records whose path lies directly in `folder`, `local` being that folder here (the
    /// engine adds the downloads a killed run placed, `PlacedDownloads`).
    /// - Throws: when the state cannot be read.
    func records(in folder: RelativePath, local: Snapshot) throws -> [FileRecord]
    /// The subfolders of `folder` holding a record somewhere below them.
    /// - Throws: when the state cannot be read.
    func recordFolders(in folder: RelativePath) throws -> [RelativePath]
    /// True when a record lies somewhere below `folder`.
    /// - Throws: when the state cannot be read.
    func hasRecords(below folder: RelativePath) throws -> Bool
    /// True when a record holds a remote file of `size` bytes at a time matching `time`.
    /// - Throws: when the state cannot be read.
    func hasRecord(remoteSize size: UInt64, matching time: FileTime) throws -> Bool
    /// `listing` with the times that need it made precise (`ListingPrecision`; the engine asks
    /// MDTM), `records` being the folder's.
    /// - Throws: when the run is stopped.
    func refined(_ listing: Snapshot, records: [RelativePath: FileRecord]) throws -> Snapshot
    /// What the device shows of the move candidates (`MoveEvidence`).
    func evidence(for candidates: [MoveCandidate]) -> MoveEvidence
}

/// One folder's listing as the walk takes it.
public struct FolderListing: Sendable {
    /// The entries directly in the folder.
    public var entries: [SnapshotEntry]
    /// True when the content is not known in full (the listing failed or was cut short).
    public var isIncomplete: Bool
    /// True when its dot-names are unknown (`Snapshot.hiddenUnknown`).
    public var mayHideDotNames: Bool

    /// A listing of `entries`, complete unless said otherwise.
    public init(entries: [SnapshotEntry], isIncomplete: Bool = false, mayHideDotNames: Bool = false) {
        self.entries = entries
        self.isIncomplete = isIncomplete
        self.mayHideDotNames = mayHideDotNames
    }
}
