// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// What the folder walk of a pull (`PullWalk`) reads, one folder at a time: the device's
/// listing, the local folder, the records; and what it asks of the state and the device.
/// The engine reads the device, the disk and the state; a test serves snapshots.
public protocol PullWalkSource: FolderWalkSource {
    /// The records whose path lies directly in `folder`, `local` being that folder here (the
    /// engine adds the downloads a killed run placed, `PlacedDownloads`).
    /// - Throws: when the state cannot be read.
    func records(in folder: RelativePath, local: Snapshot) throws -> RecordTable
    /// True when a record holds a remote file of `size` bytes at a time matching `time`.
    /// - Throws: when the state cannot be read.
    func hasRecord(remoteSize size: UInt64, matching time: FileTime) throws -> Bool
    /// `listing` with the times that need it made precise (`ListingPrecision`; the engine asks
    /// MDTM), `records` being the folder's.
    /// - Throws: when the run is stopped.
    func refined(_ listing: Snapshot, records: RecordTable) throws -> Snapshot
    /// What the device shows of the move candidates (`MoveEvidence`).
    func evidence(for candidates: [MoveCandidate]) -> MoveEvidence
}

/// One folder's listing as the walk takes it.
public struct FolderListing: Sendable {
    /// The entries directly in the folder, in compact form.
    public var snapshot: Snapshot
    /// True when the content is not known in full (the listing failed or was cut short).
    public var isIncomplete: Bool
    /// True when its dot-names are unknown (`Snapshot.hiddenUnknown`).
    public var mayHideDotNames: Bool

    /// A listing of `snapshot`'s entries, complete unless said otherwise.
    public init(snapshot: Snapshot, isIncomplete: Bool = false, mayHideDotNames: Bool = false) {
        self.snapshot = snapshot
        self.isIncomplete = isIncomplete
        self.mayHideDotNames = mayHideDotNames
    }

    /// A listing of `entries`, complete unless said otherwise.
    public init(entries: [SnapshotEntry], isIncomplete: Bool = false, mayHideDotNames: Bool = false) {
        self.init(snapshot: Snapshot(entries), isIncomplete: isIncomplete, mayHideDotNames: mayHideDotNames)
    }
}
