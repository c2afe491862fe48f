// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import FTPListing
import Foundation
import LocalTree
import SyncCore

/// Reads a device's tree folder by folder for a walk (`RemoteWalk`): each listing validated and
/// turned into paths (`read`), its outcome taken in walk order (`take`).
///
/// Every name is validated before it becomes a path: names with `/` or NUL, `.` and `..` are
/// skipped with a note, and links are recorded but never followed. Names are normalized to NFC
/// for the paths (the keys the planner matches on).
///
/// With `connections` above 1 and `openExtra` set, folders are listed over up to that many
/// control connections at once (`ParallelListing`), ahead of the walk by a bounded window; the
/// walk takes them in its own order whatever order they arrive in.
struct RemoteScanner {
    var remote: RemoteFileSystem
    var root: String
    /// Patterns of paths to leave out.
    var excludes: FilterRules
    /// Control connections to list over, `remote` included (at least 1).
    var connections = 1
    /// Opens one more connection of the device run (fresh, logged in); nil lists on `remote` alone.
    var openExtra: (() throws -> RemoteFileSystem)?
    /// The device's budget for listings: when it is exceeded the walk throws its error.
    var budget: ListingBudget?

    /// What one folder's listing gave: its entries (excluded ones left out), the lines about
    /// refused names and unreadable lines, and the subfolders to list next, in listing order.
    struct Folder {
        var entries = Snapshot([])
        var skipped: [SkippedEntry] = []
        var subfolders: [RelativePath] = []
        /// Why the listing is known to be incomplete (the server said so, or it showed only the
        /// folder itself), or nil.
        var incomplete: String?
        /// A hash of the listing's names, kinds, sizes and times (nil when it is empty), to
        /// recognise a listing that repeats an ancestor's (`ParallelListing`).
        var fingerprint: Int?
        /// True when the listing held no entry at all (`.` and `..` aside) and no unreadable
        /// line: on some servers that is also what a missing folder gives.
        var listedNothing = false
        /// True when the folder was listed over the control connection (`STAT`, whose `ls`
        /// hides dot-files) and showed no name starting with `.`: its dot-names are unknown.
        var mayHideDotNames = false
        /// The entries its listing held: counted to the listing budget while the walk plans it.
        var charged = 0
    }

    /// What the listings of the folders taken so far tell beside their entries.
    struct Assembly {
        var notes: [String] = []
        var skipped: [SkippedEntry] = []
        /// Folders not known in full, with the cause: the listing failed, the server said it was
        /// cut short, or it was no listing of that folder.
        var unknown: [RelativePath: String] = [:]
        /// Folders whose dot-names are unknown (`Snapshot.hiddenUnknown`).
        var hiddenUnknown = Set<RelativePath>()
    }

    /// The listings over up to `connections` connections (`ParallelListing`), streamed to a
    /// walk at most `window` folders ahead.
    func parallelListing(window: Int) -> ParallelListing {
        let path = { [root] (folder: RelativePath) in remotePath(root: root, relative: folder.string) }
        return ParallelListing(
            first: remote, connections: connections, openExtra: openExtra, window: window, remotePath: path
        ) { [budget] remote, folder in
            do {
                let listing = try remote.list(path(folder))
                var listed = read(folder, listing: listing)
                // Counted to the budget when the walk takes it (`RemoteWalk`), not while it waits.
                listed.charged = listing.entries.count
                // Once a connection lists with STAT, every later listing of it does.
                listed.mayHideDotNames =
                    remote.learned.controlListing != nil && !listing.entries.contains { $0.name.hasPrefix(".") }
                return listed
            } catch {
                // The real cause, not the FTP error it surfaced as.
                if let exceeded = budget?.failure { throw exceeded }
                throw error
            }
        }
    }

    /// Takes the outcome of listing `folder` into `assembly`: its entries, or nil when it could
    /// not be listed (noted, and unknown).
    /// - Throws: when the root cannot be listed; `RemoteRootMissing` when its listing is empty
    ///   and the server says it does not exist.
    func take(_ folder: RelativePath, _ outcome: Swift.Result<Folder, Error>, into assembly: inout Assembly) throws
        -> Folder?
    {
        switch outcome {
        case .success(let listed):
            if folder.isRoot, listed.listedNothing,
                try remote.folderExists(remotePath(root: root, relative: "")) == false
            {
                throw RemoteRootMissing(path: remotePath(root: root, relative: ""))
            }
            assembly.skipped += listed.skipped
            if listed.mayHideDotNames { assembly.hiddenUnknown.insert(folder) }
            if let reason = listed.incomplete {
                assembly.notes.append("\(shown(folder)): listing incomplete: \(reason)")
                assembly.unknown[folder] = reason
            }
            return listed
        case .failure(let error):
            if folder.isRoot {
                // A server that answers LIST of a missing folder with 550 (pyftpdlib), the
                // folder then not found either: the `remote:` folder is not there.
                let rootPath = remotePath(root: root, relative: "")
                if case .reply(code: 550, _, _)? = error as? FTPError,
                    ((try? remote.folderExists(rootPath)) ?? nil) == false
                {
                    throw RemoteRootMissing(path: rootPath)
                }
                throw error
            }
            assembly.notes.append("\(folder): could not be listed: \(error)")
            assembly.unknown[folder] = "\(error)"
            return nil
        }
    }

    private func shown(_ folder: RelativePath) -> String { folder.isRoot ? "/" : folder.string }

    /// The shown path of a listed name that is no valid path component: `folder/name`.
    static func child(_ name: String, of folder: RelativePath) -> String {
        folder.isRoot ? name : folder.string + "/" + name
    }

    /// Turns the listing of `folder` into paths: validated, NFC, excluded ones left out.
    func read(_ folder: RelativePath, listing: ParsedListing) -> Folder {
        var result = Folder()
        let shownFolder = folder.isRoot ? "/" : folder.string
        // A line that could not be read is an entry skipped: reported like a refused name.
        for warning in listing.warnings {
            // The line's name could not be read: the entry is named by its folder.
            result.skipped.append(SkippedEntry(path: shownFolder, reason: warning))
        }
        if let truncation = listing.truncation { result.incomplete = truncation }
        result.listedNothing =
            listing.warnings.isEmpty && listing.entries.allSatisfy { $0.name == "." || $0.name == ".." }
        if !folder.isRoot, listing.entries.count == 1, let only = listing.entries.first, only.type == .dir,
            only.name.nfc == folder.name
        {
            // vsftpd lists a folder it cannot open as the folder itself (`ls -d`): descending
            // would find the same again, one level deeper each time.
            result.incomplete = "the listing shows only the folder itself, not its content"
            return result
        }
        var hasher = Hasher()
        // Names equal in NFC: the second and further get `STEM~nfd.EXT` here (`NameTwins`).
        let twins = NameTwins.renamed(listing.entries.map(\.name))
        // The entries in compact form as they are made (a folder of 100,000 names holds no
        // array of them).
        var entries = Snapshot.Builder()
        var leftOut = Set<RelativePath>()
        for (index, item) in listing.entries.enumerated() {
            let path: RelativePath
            if item.name.utf8.contains(where: { $0 == 13 || $0 == 10 }) {
                // Such a name can never be sent back in a command (RFC 959 §4.1: CRLF ends it).
                let shown = item.name.replacingOccurrences(of: "\r", with: "\\r")
                    .replacingOccurrences(of: "\n", with: "\\n")
                result.skipped.append(
                    SkippedEntry(path: Self.child(shown, of: folder), reason: "the name contains CR or LF"))
                continue
            }
            do {
                // Paths are matched in NFC: a server that spells a name in NFD (macOS-made
                // files) and a local tree in NFC hold the same file. Commands use the
                // server's spelling (`FTPRemote` remembers it; `rawName` keeps the bytes).
                path = try folder.appending(validating: twins[index] ?? item.name.nfc)
            } catch {
                result.skipped.append(
                    SkippedEntry(path: Self.child(item.name, of: folder), reason: "\(error)"))
                continue
            }
            let kind = EntryKind(item.type)
            if excludes.excludes(path: path.string, isFolder: kind == .directory) {
                leftOut.insert(path)
                continue
            }
            // An approximate size (`12.5M` from some embedded servers) is no size: it can
            // neither be compared nor checked after a download.
            let rawName = item.rawName.elementsEqual(path.name.utf8) ? nil : item.rawName
            entries.append(
                SnapshotEntry(
                    path: path, kind: kind, size: kind == .file && item.sizeIsExact ? item.size : nil,
                    modified: item.modified.map(FileTime.init(listed:)), rawName: rawName))
            if kind == .directory { result.subfolders.append(path) }
            hasher.combine(path.name)
            hasher.combine(kind)
            hasher.combine(item.size)
            hasher.combine(item.modified?.date)
        }
        if entries.count > 0 { result.fingerprint = hasher.finalize() }
        result.entries = entries.finish()
        result.entries.leftOut = leftOut
        return result
    }
}

extension EntryKind {
    init(_ type: EntryType) {
        switch type {
        case .file: self = .file
        case .dir: self = .directory
        case .link: self = .symlink
        case .other: self = .other
        }
    }
}

extension FileTime {
    /// A listed time, with the listing's precision as the granularity.
    init(listed: ListedTime) {
        let granularity: TimeGranularity
        switch listed.precision {
        case .day: granularity = .day
        case .minute: granularity = .minute
        case .second: granularity = .second
        case .subsecond: granularity = .exact
        }
        self.init(date: listed.date, granularity: granularity)
    }
}
