// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// The device's tree listed folder by folder as a walk asks for it (`PullWalk`, `PushWalk`): the listings
/// of `RemoteScanner`, over up to its `connections` at once, the extra connections listing
/// ahead of the walk by a bounded window (`ParallelListing.take(_:)`).
final class RemoteWalk {
    private let scanner: RemoteScanner
    private let listing: ParallelListing
    /// What the listings told beside their entries (notes, skipped names, unknown folders).
    private(set) var assembly = RemoteScanner.Assembly()

    /// The entries of the listing handed out last, counted to the budget until the walk asks
    /// for the next one (it has planned that folder by then, or reads ahead of it). Folders
    /// listed ahead are not counted while they wait: a window of them must not fail a device
    /// that one connection lists whole.
    private var held = 0

    /// Folders listed ahead of the walk at most, per connection.
    static let windowPerConnection = 8

    /// A walk over `scanner`'s device.
    init(_ scanner: RemoteScanner) {
        self.scanner = scanner
        listing = scanner.parallelListing(window: max(1, scanner.connections) * Self.windowPerConnection)
    }

    /// The listing of `folder` (the root first, each folder after its parent); a folder that
    /// could not be listed in full is incomplete (noted in `assembly`).
    /// - Throws: when the root cannot be listed (`RemoteRootMissing` when it does not exist);
    ///   `ListingBudgetExceeded` when the listings went over the budget.
    func listing(of folder: RelativePath) throws -> FolderListing {
        scanner.budget?.release(entries: held)
        held = 0
        let outcome = listing.take(folder)
        if let exceeded = scanner.budget?.failure { throw exceeded }
        guard let listed = try scanner.take(folder, outcome, into: &assembly) else {
            return FolderListing(entries: [], isIncomplete: true)
        }
        try scanner.budget?.count(
            entries: listed.charged, listing: remotePath(root: scanner.root, relative: folder.string))
        held = listed.charged
        return FolderListing(
            snapshot: listed.entries, isIncomplete: listed.incomplete != nil, mayHideDotNames: listed.mayHideDotNames)
    }

    /// The entries of `folder` listed at once on the first connection, outside the walk's order:
    /// the few folders a run looks at before its walk (`UploadReconciler`). None when it cannot
    /// be listed (the device has no such folder).
    func entries(of folder: RelativePath) -> Snapshot {
        let path = remotePath(root: scanner.root, relative: folder.string)
        guard let listed = try? scanner.remote.list(path) else { return Snapshot([]) }
        return scanner.read(folder, listing: listed).entries
    }

    /// Ends the listing (the extra connections are closed); their retries join the notes.
    func end() {
        scanner.budget?.release(entries: held)
        held = 0
        listing.end()
        assembly.notes += listing.notes
    }
}
