// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The safety checks on deletes (CONTRACT.md, `--max-delete`).
///
/// A folder of the source side that comes back empty while the records hold files under it is
/// suspect (a listing cut short, a card not mounted): nothing under it is deleted unless the
/// limit is off. A plan deleting more files than the limit is refused as a whole.
struct DeleteGuard {
    private let source: Snapshot
    private let unlimited: Bool
    private let maxDelete: Int?
    /// Folders of the source (and the root) holding at least one entry.
    private let nonEmpty: Set<RelativePath>
    /// Every folder (and the root) holding a recorded path somewhere below it.
    private let recordedFolders: Set<RelativePath>

    /// - Parameter checking: false when `suspectFolder` will not be called (no delete
    ///   candidates): the folder sets are then not built.
    init(source: Snapshot, records: [RelativePath: FileRecord], maxDelete: Int?, checking: Bool = true) {
        self.source = source
        self.maxDelete = maxDelete
        unlimited = maxDelete == nil
        guard checking && !unlimited else {
            nonEmpty = []
            recordedFolders = []
            return
        }
        var nonEmpty = Set<RelativePath>()
        var previous: RelativePath?
        for entry in source.entries {
            // Entries of one folder are neighbours: build each parent once.
            if let previous, entry.path.hasSameParentBytes(as: previous) { continue }
            nonEmpty.insert(entry.path.parent)
            previous = entry.path
        }
        self.nonEmpty = nonEmpty
        var folders = Set<RelativePath>()
        for path in records.keys {
            var folder = path.parent
            while folders.insert(folder).inserted && !folder.isRoot { folder = folder.parent }
        }
        recordedFolders = folders
    }

    /// The empty source folder that makes deleting `path` suspect, or nil when it may go.
    func suspectFolder(for path: RelativePath) -> RelativePath? {
        guard !unlimited else { return nil }
        var folder = path.parent
        while !folder.isRoot, source[folder] == nil { folder = folder.parent }
        if let entry = source[folder], entry.kind != .directory { return nil }
        return !nonEmpty.contains(folder) && recordedFolders.contains(folder) ? folder : nil
    }

    /// Why the plan is refused, or nil: more file deletes than the limit.
    func refusal(deletes: [Action]) -> String? {
        Self.refusal(files: deletes.filter { $0.source?.kind != .directory }.count, maxDelete: maxDelete)
    }

    /// Why a plan deleting `files` files is refused under `maxDelete` (nil: no limit), or nil.
    static func refusal(files: Int, maxDelete: Int?) -> String? {
        guard let maxDelete, files > maxDelete else { return nil }
        return "the plan deletes \(files) files, more than --max-delete \(maxDelete); nothing was changed"
            + " (use --max-delete -1 for no limit)"
    }

    /// The entries of `extra` that `other` lacks and no rename carries away: what `--delete`
    /// would remove (before the guard's checks), in `extra`'s order.
    static func candidates(in extra: Snapshot, absentFrom other: Snapshot, renamed: Set<RelativePath>)
        -> [SnapshotEntry]
    {
        let positions = extra.positions(in: other)
        var found: [SnapshotEntry] = []
        for (position, entry) in extra.entries.enumerated()
        where positions[position] < 0 && !renamed.contains(entry.path) {
            found.append(entry)
        }
        return found
    }

    /// The note of a run without `--delete` about the files that left one side since the last
    /// sync and are kept on the other; nil when there are none.
    /// - Parameters:
    ///   - gone: the recorded paths absent from the side they left.
    ///   - kept: the side that still has them; `renamed` paths a rename carries over.
    ///   - command: `pull` or `push`; `what`, `place`: how the note words it.
    static func keptNote(
        gone: [(RelativePath, FileRecord)], kept: Snapshot, renamed: Set<RelativePath>, command: String,
        what: String, place: String
    ) -> String? {
        let count = gone.filter { path, _ in
            !renamed.contains(path) && kept.position(of: path).map { kept.entries[$0].kind == .file } == true
        }.count
        return keptNote(count: count, command: command, what: what, place: place)
    }

    /// The note of `keptNote(gone:kept:renamed:command:what:place:)` for `count` files kept.
    static func keptNote(count: Int, command: String, what: String, place: String) -> String? {
        guard count > 0 else { return nil }
        return "\(count) file\(count == 1 ? "" : "s") \(what) since the last sync, kept \(place)"
            + " (\(command) --delete would delete \(count == 1 ? "it" : "them"))"
    }

    /// The note for a delete left out because its folder is suspect.
    static func note(folder: RelativePath, kept: Int) -> String {
        let shown = folder.isRoot ? "the device root" : "'\(folder)'"
        let what = kept == 1 ? "1 entry" : "\(kept) entries"
        return "\(shown) came back empty although files were synced there: \(what) below it not deleted"
            + " (use --max-delete -1 to allow)"
    }

    /// The entries kept below each suspect folder, counted for one note per folder
    /// (`note(folder:kept:)`), in the order the folders were first met.
    struct KeptBelowSuspects {
        private var order: [RelativePath] = []
        private var counts: [RelativePath: Int] = [:]

        mutating func add(below folder: RelativePath) {
            if counts[folder] == nil { order.append(folder) }
            counts[folder, default: 0] += 1
        }

        /// One note per folder, then nothing is left counted.
        mutating func notes() -> [String] {
            defer { (order, counts) = ([], [:]) }
            return order.map { DeleteGuard.note(folder: $0, kept: counts[$0] ?? 0) }
        }
    }
}
