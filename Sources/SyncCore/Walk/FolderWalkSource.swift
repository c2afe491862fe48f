// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// What both folder walks (`PullWalk`, `PushWalk`) read the same way, one folder at a time: the
/// device's listing, the local folder, and where the records lie. Each walk's own source adds
/// what its direction needs (`PullWalkSource`, `PushWalkSource`).
public protocol FolderWalkSource {
    /// The device's listing of `folder` (a folder the device lists), in any order.
    /// - Throws: what makes the device fail (the root cannot be listed, a listing budget).
    func listing(of folder: RelativePath) throws -> FolderListing
    /// The entries directly in the local folder `folder` (unknown: what could not be read); a
    /// push's files come with the digests a move or a touched file needs.
    /// - Throws: what makes the device fail (the local root cannot be read).
    func localFolder(_ folder: RelativePath) throws -> Snapshot
    /// The subfolders of `folder` holding a record somewhere below them.
    /// - Throws: when the state cannot be read.
    func recordFolders(in folder: RelativePath) throws -> [RelativePath]
    /// True when a record lies somewhere below `folder`.
    /// - Throws: when the state cannot be read.
    func hasRecords(below folder: RelativePath) throws -> Bool
}
