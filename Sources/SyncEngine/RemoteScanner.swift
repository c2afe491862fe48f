import FTPListing
import Foundation
import LocalTree
import SyncCore

/// Walks a device's tree, folder by folder, into a `Snapshot`.
///
/// Every name is validated before it becomes a path: names with `/` or NUL, `.` and `..` are
/// skipped with a note, and links are recorded but never followed. Names are normalized to NFC
/// for the paths (the keys the planner matches on).
struct RemoteScanner {
    var remote: RemoteFileSystem
    var root: String
    /// Patterns of paths to leave out.
    var excludes: ExcludeRules

    /// The snapshot and the notes about skipped entries and unreadable lines.
    struct Result {
        var snapshot: Snapshot
        var notes: [String]
        /// Listed names refused as unsafe (`/`, NUL, `.`, `..`), one line each.
        var skipped: [String]
    }

    /// Lists the whole tree below `root`.
    /// - Throws: when the root cannot be listed; a subfolder that cannot be listed is noted and
    ///   its content left out of the snapshot (and so never planned for deletion).
    func scan() throws -> Result {
        var entries: [SnapshotEntry] = []
        var notes: [String] = []
        var skipped: [String] = []
        var pending: [RelativePath] = [.root]
        while let folder = pending.popLast() {
            let listing: ParsedListing
            do {
                listing = try remote.list(remotePath(root: root, relative: folder.string))
            } catch {
                if folder.isRoot { throw error }
                notes.append("\(folder): could not be listed: \(error)")
                continue
            }
            // A line that could not be read is an entry skipped: reported like a refused name.
            for warning in listing.warnings { skipped.append("\(folder.isRoot ? "/" : folder.string): \(warning)") }
            for item in listing.entries {
                let path: RelativePath
                if item.name.utf8.contains(where: { $0 == 13 || $0 == 10 }) {
                    // Such a name can never be sent back in a command (RFC 959 §4.1: CRLF ends it).
                    let shown = item.name.replacingOccurrences(of: "\r", with: "\\r")
                        .replacingOccurrences(of: "\n", with: "\\n")
                    skipped.append(
                        "skipped a listed name in '\(folder.isRoot ? "/" : folder.string)': '\(shown)' contains CR or LF"
                    )
                    continue
                }
                do {
                    // Paths are matched in NFC: a server that spells a name in NFD (macOS-made
                    // files) and a local tree in NFC hold the same file. Commands use the
                    // server's spelling (`FTPRemote` remembers it; `rawName` keeps the bytes).
                    path = try folder.appending(validating: item.name.precomposedStringWithCanonicalMapping)
                } catch {
                    skipped.append("skipped a listed name in '\(folder.isRoot ? "/" : folder.string)': \(error)")
                    continue
                }
                let kind = EntryKind(item.type)
                if excludes.excludes(path: path.string, name: path.name, isFolder: kind == .directory) { continue }
                // An approximate size (`12.5M` from some embedded servers) is no size: it can
                // neither be compared nor checked after a download.
                let rawName = item.rawName.elementsEqual(path.name.utf8) ? nil : item.rawName
                entries.append(
                    SnapshotEntry(
                        path: path, kind: kind, size: kind == .file && item.sizeIsExact ? item.size : nil,
                        modified: item.modified.map(FileTime.init(listed:)), rawName: rawName))
                if kind == .directory { pending.append(path) }
            }
        }
        return Result(snapshot: Snapshot(entries), notes: notes, skipped: skipped)
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
