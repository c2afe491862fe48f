// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Comparisons of one side with its own record, shared by the pull and push planners.
///
/// Each side is compared only with what was recorded for that side at the last successful sync,
/// never with the other side's clock.
enum Comparison {
    /// Size and time as listed now equal what was listed at the last sync (within the listing's
    /// precision). A size unknown on either side (a rough `12.5M` that SIZE confirmed on one run
    /// and not on the other) is no difference: the time decides.
    static func remoteMatches(_ remote: SnapshotEntry, _ record: FileRecord) -> Bool {
        if let size = remote.size, let recorded = record.remoteSize, size != recorded { return false }
        switch (remote.modified, record.remoteModified) {
        case (nil, nil): return true
        case (let a?, let b?): return listedMatch(a, recorded: b)
        default: return false
        }
    }

    /// A listed minute against a recorded time to the second (`ListingPrecision`): the same only
    /// when the second falls in that minute (a listed minute is the start of its minute), not
    /// merely within a minute of it. Otherwise `FileTime.matches`.
    static func listedMatch(_ listed: FileTime, recorded: FileTime) -> Bool {
        guard listed.granularity == .minute, recorded.granularity == .second else { return listed.matches(recorded) }
        return recorded.seconds >= listed.seconds && recorded.seconds < listed.seconds + 60
    }

    /// Size and time of the local file equal what was recorded at the last sync.
    static func localMatches(_ local: SnapshotEntry, _ record: FileRecord) -> Bool {
        guard local.size == record.localSize, let modified = local.modified else { return false }
        return modified.matches(record.localModified)
    }

    /// With no record: equal size and time within the listing's precision mean the same file.
    static func sameContent(remote: SnapshotEntry, local: SnapshotEntry) -> Bool {
        guard let size = remote.size, size == local.size, let a = remote.modified, let b = local.modified else {
            return false
        }
        return a.matches(b)
    }
}

/// Names of the temporary files an upload writes beside its target (CONTRACT.md, "Layout on disk").
public enum UploadNaming {
    /// The suffix every upload's temporary name ends with.
    public static let suffix = ".ftpsync-part"

    /// The longest temporary name, in bytes: what the servers' file systems take (`NAME_MAX`).
    public static let nameMax = 255

    /// `.NAME.ftpsync-part`: where the upload of `name` collects its bytes on the server. When
    /// that is longer than `nameMax` bytes (a name of 242 bytes or more), the name is cut on a
    /// Unicode scalar boundary and `~` with 8 hex digits of its whole bytes' FNV-1a hash is
    /// put after it, so two long names cut alike still get two temporaries:
    /// `.<cut name>~<hash>.ftpsync-part`. The same name always gets the same temporary.
    public static func temporaryName(for name: String) -> String {
        let whole = "." + name + suffix
        guard whole.utf8.count > nameMax else { return whole }
        let hash = String(FNV1a.hash(name.utf8) >> 32, radix: 16)
        let tag = "~" + String(repeating: "0", count: 8 - hash.count) + hash
        var room = nameMax - 1 - tag.utf8.count - suffix.utf8.count
        var cut = ""
        for scalar in name.unicodeScalars {
            let width = String(scalar).utf8.count
            guard width <= room else { break }
            cut.unicodeScalars.append(scalar)
            room -= width
        }
        return "." + cut + tag + suffix
    }

    /// The temporary path beside `path`.
    public static func temporaryPath(for path: RelativePath) -> RelativePath {
        // The name is built from a valid component and adds no `/` or NUL, so it stays valid.
        (try? path.parent.appending(validating: temporaryName(for: path.name))) ?? path
    }

    /// True for a name an upload of ftpsync uses while in progress: never synced either way.
    public static func isTemporary(_ path: RelativePath) -> Bool {
        // Nearly every path fails this byte test (the name must end in `t`), which skips taking
        // out the name.
        guard path.string.utf8.last == UInt8(ascii: "t") else { return false }
        let name = path.name
        return name.hasPrefix(".") && name.hasSuffix(suffix) && name.count > suffix.count + 1
    }
}

/// Puts a plan's actions in the order they are carried out: what clears a type change first (in
/// the order given), then folders before their contents, renames before transfers, deletes last
/// and deepest first.
enum PlanOrder {
    /// The transfers, usually the bulk of a plan, are taken over in place: the others are put
    /// around them without a second copy of the list.
    static func ordered(
        clearing: [Action] = [], folders: [Action], renames: [Action], transfers: consuming [Action],
        deletes: [Action]
    ) -> [Action] {
        let deepestFirst = Self.deepestFirst(deletes)
        var actions = transfers
        actions.reserveCapacity(clearing.count + folders.count + renames.count + actions.count + deepestFirst.count)
        actions.insert(contentsOf: clearing + folders.sorted { $0.path < $1.path } + renames, at: 0)
        actions.append(contentsOf: deepestFirst)
        return actions
    }

    /// `deletes` deepest first (a folder after what it holds), the deeper paths in reverse order.
    static func deepestFirst(_ deletes: [Action]) -> [Action] {
        deletes.sorted { a, b in
            let (depthA, depthB) = (a.path.depth, b.path.depth)
            if depthA != depthB { return depthA > depthB }
            return b.path < a.path
        }
    }
}
