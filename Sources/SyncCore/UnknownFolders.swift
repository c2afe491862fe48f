// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The folders of either side whose content could not be read in full (`Snapshot.unknown`),
/// as the planners use them: a path there that one side lacks may exist all the same, so an
/// absence there is no evidence of anything.
///
/// The rules (issue 13, "an unreadable folder is not a deletion"):
/// - nothing at or below an unknown folder of either side is deleted, nor a folder holding one;
/// - no record below one counts as gone (no rename from it, no record forgotten, no note
///   about files that left), and no file below one is taken as the new place of a move;
/// - nothing is transferred (or a folder made) below a folder unknown on the receiving side,
///   where the path might already hold something.
///
/// A dot-name (`.config`) in a folder of `Snapshot.hiddenUnknown` counts as an unknown folder
/// of its own (and so does all below it), and deleting such a folder is forbidden like
/// deleting a folder that holds an unknown one (issue 16: STAT's `ls` hides dot-files).
struct UnknownFolders {
    /// Unknown folders of the side that is copied from (the device for a pull).
    let source: Set<RelativePath>
    /// Unknown folders of the side that is written (the local tree for a pull).
    let destination: Set<RelativePath>
    /// Folders of the source side whose dot-names are unknown (`Snapshot.hiddenUnknown`).
    let sourceHidden: Set<RelativePath>
    /// Folders of the written side whose dot-names are unknown.
    let destinationHidden: Set<RelativePath>

    init(source: Snapshot, destination: Snapshot) {
        self.source = source.unknown
        self.destination = destination.unknown
        sourceHidden = source.hiddenUnknown
        destinationHidden = destination.hiddenUnknown
    }

    /// The folders of each side, as sets (the folder walk's, growing as it goes).
    init(
        source: Set<RelativePath>, destination: Set<RelativePath>, sourceHidden: Set<RelativePath>,
        destinationHidden: Set<RelativePath>
    ) {
        self.source = source
        self.destination = destination
        self.sourceHidden = sourceHidden
        self.destinationHidden = destinationHidden
    }

    /// True when neither side has an unknown folder: every check answers nil at no cost.
    var isEmpty: Bool { source.isEmpty && destination.isEmpty && sourceHidden.isEmpty && destinationHidden.isEmpty }

    /// The unknown folder (of either side) at or above `path`, if any.
    func folder(holding path: RelativePath) -> RelativePath? {
        if isEmpty { return nil }
        return Self.find(path, in: source, hidden: sourceHidden)
            ?? Self.find(path, in: destination, hidden: destinationHidden)
    }

    /// The unknown folder (of either side) that forbids deleting `path`: one at or above it, or
    /// one below it (removing a folder removes what it holds), if any.
    func forbidsDelete(of path: RelativePath) -> RelativePath? {
        if isEmpty { return nil }
        if let folder = folder(holding: path) { return folder }
        let holds = { (folder: RelativePath) in path.isAncestor(of: folder) }
        let holdsOrIs = { (folder: RelativePath) in folder == path || path.isAncestor(of: folder) }
        return source.first(where: holds) ?? destination.first(where: holds)
            ?? sourceHidden.first(where: holdsOrIs) ?? destinationHidden.first(where: holdsOrIs)
    }

    /// The destination's unknown folder at or above `path`, if any: nothing may be written to
    /// `path`, which may hold something the destination could not show.
    func destinationFolder(holding path: RelativePath) -> RelativePath? {
        Self.find(path, in: destination, hidden: destinationHidden)
    }

    /// The records whose paths lie outside every unknown folder.
    func outside(_ gone: [(RelativePath, FileRecord)]) -> [(RelativePath, FileRecord)] {
        isEmpty ? gone : gone.filter { folder(holding: $0.0) == nil }
    }

    /// One note per unknown folder, in path order: what the plan leaves alone there.
    /// - Parameters:
    ///   - sourcePlace, destinationPlace: how the notes name each side ("on the device", "here").
    func notes(sourcePlace: String, destinationPlace: String) -> [String] {
        var lines: [String] = []
        for folder in source.sorted() {
            lines.append(Self.note(folder, place: sourcePlace))
        }
        for folder in destination.sorted() where !source.contains(folder) {
            lines.append(Self.note(folder, place: destinationPlace))
        }
        return lines
    }

    private static func note(_ folder: RelativePath, place: String) -> String {
        let shown = folder.isRoot ? "the device root" : "'\(folder)'"
        return "\(shown): content \(place) unknown (could not be read in full); nothing in it is deleted,"
            + " renamed or overwritten"
    }

    /// The folder of `folders` at or above `path`, or the dot-name at or above it whose
    /// folder is in `hidden`, if any.
    private static func find(_ path: RelativePath, in folders: Set<RelativePath>, hidden: Set<RelativePath>)
        -> RelativePath?
    {
        guard !folders.isEmpty || !hidden.isEmpty else { return nil }
        var folder = path
        while true {
            if folders.contains(folder) { return folder }
            if folder.isRoot { return nil }
            let parent = folder.parent
            if folder.name.hasPrefix("."), hidden.contains(parent) { return folder }
            folder = parent
        }
    }
}
