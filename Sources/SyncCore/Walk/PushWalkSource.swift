// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// What the folder walk of a push (`PushWalk`) reads, one folder at a time: the local folder
/// (the source), the device's listing, the records. The engine reads the disk, the device and
/// the state; a test serves snapshots.
public protocol PushWalkSource: FolderWalkSource {
    /// The records whose path lies directly in `folder`.
    /// - Throws: when the state cannot be read.
    func records(in folder: RelativePath) throws -> RecordTable
    /// True when a record with a digest holds a local file of `size` bytes: only then can a new
    /// local file of that size be a move (`RenameDetection.localMoves`).
    /// - Throws: when the state cannot be read.
    func hasRecord(localSize size: UInt64) throws -> Bool
}
