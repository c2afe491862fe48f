// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// Lists the folders of a device's tree over up to `connections` control connections at once:
/// the first connection (the device run's own, on the calling thread) and extra ones opened
/// fresh with `openExtra`, each on a thread of its own, once the tree shows `extrasFrom` or more
/// folders still to list (a login costs as much as tens of listings: a small tree is listed
/// faster over one connection). Every extra connection ends with QUIT in `end()`.
///
/// The walk takes each folder as it needs it (`take(_:)`: the root first, each folder after its
/// parent); the extra connections list ahead of it in walk order, at most `window` folders.
/// A folder an extra connection fails to list goes back to the first connection, and that
/// extra connection takes no more: whether a folder "could not be listed", and with which
/// error, is always the first connection's verdict, as when it lists everything alone.
/// When the root cannot be listed nothing else is listed.
///
/// The server's spelling of a folder (NFD names) travels with the folder to whichever connection
/// lists it; an extra connection starts with the clock offset the first one measured so far;
/// and at the end, what the extra connections learned is handed to the first connection
/// (`LearnedState.absorb(_:)`), so later commands on it name files as the listings did.
final class ParallelListing: @unchecked Sendable {
    /// Lists one folder over the given connection; throws when it cannot be listed.
    typealias Lister = (RemoteFileSystem, RelativePath) throws -> RemoteScanner.Folder

    private let first: RemoteFileSystem
    private let connections: Int
    /// Folders waiting to be listed that justify opening the extra connections.
    private let extrasFrom: Int
    private let openExtra: (() throws -> RemoteFileSystem)?
    private let lister: Lister
    /// The path a folder is listed under (before the server's spelling).
    private let remotePath: (RelativePath) -> String
    private let condition = NSCondition()
    /// Folders not handed out yet (taken from the end).
    private var pending: [Work] = [Work(folder: .root, spelling: nil)]
    /// Folders an extra connection failed to list, for the first connection.
    private var handedBack: [Work] = []
    /// Folders being listed right now.
    private var inFlight = 0
    /// Set when the root failed: nothing more is handed out.
    private var stopped = false
    private var outcomes: [RelativePath: Result<RemoteScanner.Folder, Error>] = [:]
    /// The fingerprint of every folder listed (non-empty listings), to recognise a listing
    /// that repeats an ancestor's.
    private var fingerprints: [RelativePath: Int] = [:]
    private var extras: [RemoteFileSystem] = []
    /// Lines for the device's notes: retries made on the extra connections.
    private(set) var notes: [String] = []
    /// Folders listed ahead of the walk and not taken yet, at most this many with those being
    /// listed.
    private let window: Int
    /// Folders being listed right now, and whether the walk is over.
    private var listing = Set<RelativePath>()
    private var ended = false
    private let group = DispatchGroup()
    private var started = false

    /// - Parameters:
    ///   - first: the device run's connection (owned by the caller; not closed here).
    ///   - connections: control connections to use, `first` included.
    ///   - openExtra: opens one more connection; nil for `first` alone.
    ///   - extrasFrom: folders waiting (at least 1) from which the extra connections are opened.
    ///   - remotePath: the path a folder is listed under.
    ///   - lister: lists one folder over one connection.
    ///   - window: folders listed ahead of the walk at most (at least 1).
    init(
        first: RemoteFileSystem, connections: Int, openExtra: (() throws -> RemoteFileSystem)?, extrasFrom: Int = 4,
        window: Int, remotePath: @escaping (RelativePath) -> String, lister: @escaping Lister
    ) {
        self.window = max(1, window)
        self.first = first
        self.remotePath = remotePath
        self.connections = openExtra == nil ? 1 : max(1, connections)
        self.openExtra = openExtra
        self.extrasFrom = max(1, extrasFrom)
        self.lister = lister
    }

    /// The outcome of `folder`, which the walk needs now (the root first, then each
    /// folder after its parent). Taken from what the extra connections listed ahead, waited for
    /// while one lists it, else listed on the first connection here and now. The extra
    /// connections list ahead in walk order (depth first, names in order), at most `window`
    /// folders beyond the walk. Call `end()` once the walk is over.
    func take(_ folder: RelativePath) -> Result<RemoteScanner.Folder, Error> {
        condition.lock()
        while true {
            if let outcome = outcomes.removeValue(forKey: folder) {
                condition.broadcast()
                condition.unlock()
                startExtrasWhenDue()
                return outcome
            }
            if listing.contains(folder) {
                condition.wait()
                continue
            }
            // Not listed yet (or handed back): listed here, on the first connection.
            var work = Work(folder: folder, spelling: nil)
            if let index = handedBack.lastIndex(where: { $0.folder == folder }) {
                work = handedBack.remove(at: index)
            } else if let index = pending.lastIndex(where: { $0.folder == folder }) {
                work = pending.remove(at: index)
            }
            inFlight += 1
            listing.insert(folder)
            condition.unlock()
            finish(folder, list(work, on: first), on: first)
            condition.lock()
        }
    }

    /// Ends the listing: the extra connections stop, what they learned goes to the first one,
    /// and they are closed. Called once, after the last `take(_:)`.
    func end() {
        condition.lock()
        ended = true
        condition.broadcast()
        condition.unlock()
        group.wait()
        condition.lock()
        let opened = extras
        extras = []
        condition.unlock()
        for extra in opened {
            notes += extra.retryLog
            first.learned.absorb(extra.learned)
            extra.close()
        }
    }

    /// Opens the extra connections once enough folders wait (on the first connection's thread).
    private func startExtrasWhenDue() {
        guard !started && connections > 1 && enoughPending() else { return }
        started = true
        let learned = first.learned
        for _ in 1..<connections { startExtra(in: group, learned: learned) }
    }

    private func enoughPending() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return pending.count >= extrasFrom
    }

    /// Opens one extra connection on a thread of its own and lists with it until no folder is
    /// left or it fails one. A connection that cannot be opened simply does not take part.
    private func startExtra(in group: DispatchGroup, learned: LearnedState) {
        group.enter()
        let thread = Thread { [self] in
            defer { group.leave() }
            guard let openExtra, let remote = try? openExtra() else { return }
            remote.learned = learned
            condition.lock()
            extras.append(remote)
            condition.unlock()
            while let work = next() {
                let outcome = list(work, on: remote)
                guard case .success = outcome else {
                    handBack(work)
                    return
                }
                finish(work.folder, outcome, on: remote)
            }
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// The next folder for an extra connection to list, at most `window` ahead of the walk;
    /// waits while the window is full; nil once the walk is over (or the root failed).
    private func next() -> Work? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if stopped || ended { return nil }
            if outcomes.count + inFlight < window, let folder = pending.popLast() {
                inFlight += 1
                listing.insert(folder.folder)
                return folder
            }
            condition.wait()
        }
    }

    /// Lists `work` over `remote` (called on the thread that owns `remote`), telling it the
    /// server's spelling of the folder first.
    private func list(_ work: Work, on remote: RemoteFileSystem) -> Result<RemoteScanner.Folder, Error> {
        if let spelling = work.spelling {
            remote.learned.remember(spelling: spelling, of: remotePath(work.folder))
        }
        return Result { try lister(remote, work.folder) }
    }

    /// Records the outcome of `folder`, listed over `remote` (on its thread), and queues its
    /// subfolders with their spellings as that connection learned them.
    ///
    /// A listing identical to an ancestor's (a server answering a folder it cannot list with
    /// its parent's entries) becomes a `RepeatedListing` failure and nothing below it is
    /// listed: the ancestors are always listed first, since each folder is found in its
    /// parent's listing. A listing that went over the device's budget stops the listing.
    private func finish(
        _ folder: RelativePath, _ listed: Result<RemoteScanner.Folder, Error>, on remote: RemoteFileSystem
    ) {
        var outcome = listed
        var found: [Work] = []
        if case .success(let listed) = outcome {
            let learned = remote.learned
            found = listed.subfolders.map { sub in
                Work(folder: sub, spelling: learned.spelling(of: remotePath(sub)))
            }
        }
        condition.lock()
        defer { condition.unlock() }
        if case .success(let listing) = outcome, let fingerprint = listing.fingerprint {
            if let ancestor = repeatedAncestor(of: folder, fingerprint: fingerprint) {
                outcome = .failure(RepeatedListing(ancestor: ancestor))
                found = []
            } else {
                fingerprints[folder] = fingerprint
            }
        }
        outcomes[folder] = outcome
        listing.remove(folder)
        // In walk order, the first name on top (taken first).
        pending += found.sorted { $0.folder > $1.folder }
        if case .failure(let error) = outcome, folder.isRoot || error is ListingBudgetExceeded { stopped = true }
        inFlight -= 1
        condition.broadcast()
    }

    /// The nearest ancestor of `folder` whose listing had the same fingerprint (called locked).
    private func repeatedAncestor(of folder: RelativePath, fingerprint: Int) -> RelativePath? {
        var ancestor = folder
        while !ancestor.isRoot {
            ancestor = ancestor.parent
            if fingerprints[ancestor] == fingerprint { return ancestor }
        }
        return nil
    }

    private func handBack(_ work: Work) {
        condition.lock()
        defer { condition.unlock() }
        handedBack.append(work)
        listing.remove(work.folder)
        inFlight -= 1
        condition.broadcast()
    }

    /// A folder to list and the server's spelling of its path when that differs (NFD).
    private struct Work {
        var folder: RelativePath
        var spelling: String?
    }
}

/// A folder whose listing is the same as an ancestor's: most likely no listing of that folder
/// at all (a server that lists the current folder for a path it cannot list).
struct RepeatedListing: Error, CustomStringConvertible {
    var ancestor: RelativePath

    var description: String {
        let shown = ancestor.isRoot ? "the device root" : "'\(ancestor)'"
        return "its listing is identical to that of \(shown) (the server may have listed another folder"
            + " for one it cannot list); not descended into"
    }
}
