// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// What a conflict does (`--on-conflict`, config key `on_conflict`; CONTRACT.md, "Version 0.2").
///
/// A conflict is a file that changed on both sides since the last sync, or that both sides hold
/// with different content and no earlier sync says which is newer.
public enum ConflictPolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Both versions stay: pull keeps the local one as `NAME.conflict-<UTC time>.EXT` and
    /// downloads the device's; push keeps the device's as `NAME.conflict-<UTC time>.EXT` on the
    /// device and uploads ours.
    case keepBoth = "keep-both"
    /// The local version wins: pull keeps it and downloads nothing; push overwrites the device's.
    case localWins = "local-wins"
    /// The device's version wins: pull moves the local one to the trash and downloads; push
    /// leaves both files as they are.
    case remoteWins = "remote-wins"
    /// The side modified later wins; when the times cannot be told apart within the listing's
    /// precision, `keepBoth`.
    case newerWins = "newer-wins"
    /// Nothing changes; the conflict is reported (the run exits 1).
    case report

    /// The default of a direction: `keep-both` for a pull and a sync, `report` for a push.
    public static func defaultPolicy(for direction: SyncDirection) -> ConflictPolicy {
        direction == .push ? .report : .keepBoth
    }
}

/// What the engine does with one conflicting file: the policy applied to it.
public enum ConflictResolution: String, Sendable, Hashable, Codable {
    /// Pull: the local version set aside as a conflict copy, then the download. Push: the
    /// device's version renamed aside (RNFR/RNTO) on the device, then the upload, which is not
    /// placed unless that rename succeeded.
    case keepBoth = "keep-both"
    /// Pull: nothing downloaded, the pair recorded as in sync. Push: the upload overwrites.
    case localWins = "local-wins"
    /// Pull: the local version to the trash, then the download. Push: nothing sent, the pair
    /// recorded as in sync (the local file is left as it is).
    case remoteWins = "remote-wins"
    /// Nothing changes; the action fails with a message naming the option that resolves it.
    case report
}

/// Which side of a conflict was modified later, if the times tell.
public enum NewerSide: Sendable, Hashable {
    case local
    case remote
}

/// Applies a `ConflictPolicy` to one conflicting file. Pure: times are UTC instants as listed
/// (LIST times already read in the device's time zone) and scanned.
public enum ConflictResolver {
    /// The resolution of a conflict under `policy`; `newer-wins` compares the two times.
    public static func resolve(_ policy: ConflictPolicy, remote: FileTime?, local: FileTime?) -> ConflictResolution {
        switch policy {
        case .keepBoth: return .keepBoth
        case .localWins: return .localWins
        case .remoteWins: return .remoteWins
        case .report: return .report
        case .newerWins:
            switch newer(remote: remote, local: local) {
            case .local: return .localWins
            case .remote: return .remoteWins
            case nil: return .keepBoth
            }
        }
    }

    /// The side modified later, or nil when a time is missing or the two cannot be told apart.
    ///
    /// A listed time stands for the whole unit of its precision: `10:20` from LIST is any instant
    /// from 10:20:00 up to (not including) 10:21:00, a day-precise time the whole day. One side
    /// is newer only when every instant its time stands for is later than every instant the
    /// other's stands for; exact times are told apart beyond a millisecond.
    public static func newer(remote: FileTime?, local: FileTime?) -> NewerSide? {
        guard let remote, let local, remote.seconds.isFinite, local.seconds.isFinite else { return nil }
        let remoteEnd = remote.seconds + max(remote.granularity.seconds, 0.001)
        let localEnd = local.seconds + max(local.granularity.seconds, 0.001)
        if local.seconds >= remoteEnd { return .local }
        if remote.seconds >= localEnd { return .remote }
        return nil
    }

    /// The report of a conflict left as it is, naming the option that resolves it.
    /// - Parameters:
    ///   - direction: the run's direction.
    ///   - why: what the planner saw, e.g. "changed on both sides since the last sync".
    public static func reportedReason(_ direction: SyncDirection, why: String) -> String {
        switch direction {
        case .pull:
            return "\(why); nothing changed: use --on-conflict keep-both to keep both versions, "
                + "remote-wins to take the device's, or local-wins to keep this one"
        case .push:
            return "\(why); not overwritten: use --on-conflict local-wins to overwrite the device's copy, "
                + "or keep-both"
        case .sync:
            return "\(why); nothing changed: use --on-conflict keep-both to keep both versions on both sides, "
                + "local-wins, remote-wins or newer-wins"
        }
    }

    /// The reason given to a resolved conflict action, for the text report.
    public static func resolvedReason(_ direction: SyncDirection, _ resolution: ConflictResolution, why: String)
        -> String
    {
        switch (direction, resolution) {
        case (_, .report): return reportedReason(direction, why: why)
        case (.pull, .keepBoth): return why
        case (.pull, .localWins): return "\(why); kept this version (local-wins), the device's not downloaded"
        case (.pull, .remoteWins): return "\(why); this version to the trash, the device's downloaded (remote-wins)"
        case (.push, .keepBoth): return "\(why); the device's version kept beside it as a conflict copy (keep-both)"
        case (.push, .localWins): return "\(why); the device's version overwritten (local-wins)"
        case (.push, .remoteWins): return "\(why); the device's version kept, this one left as it is (remote-wins)"
        case (.sync, .keepBoth): return "\(why); both versions kept on both sides (keep-both)"
        case (.sync, .localWins): return "\(why); this version sent over the device's (local-wins)"
        case (.sync, .remoteWins): return "\(why); this version to the trash, the device's downloaded (remote-wins)"
        }
    }
}

/// The actions a planner puts in its plan for one conflicting file, and whether the pair is to
/// be recorded as in sync (so the conflict is not reported again until either side changes).
struct ConflictPlan {
    init(actions: [Action], adoption: Adoption? = nil, note: String? = nil) {
        self.actions = actions
        self.adoption = adoption
        self.note = note
    }

    var actions: [Action]
    var adoption: Adoption?
    /// For a conflict resolved without a transfer (pull `local-wins`, push `remote-wins`): the
    /// note that says which version was kept, for the report.
    var note: String?

    /// The plan for a conflict at `remote.path` between the device's `remote` and the local
    /// `local` entry under `policy`.
    /// - Parameters:
    ///   - transfer: the download (pull) or upload (push) that carries the winning version over.
    static func make(
        _ direction: SyncDirection, policy: ConflictPolicy, remote: SnapshotEntry, local: SnapshotEntry, why: String,
        transfer: () -> Action
    ) -> ConflictPlan {
        let resolution = ConflictResolver.resolve(policy, remote: remote.modified, local: local.modified)
        var conflict = Action(
            kind: .conflict, path: remote.path, source: local,
            reason: ConflictResolver.resolvedReason(direction, resolution, why: why))
        conflict.resolution = resolution
        let carriesOver: Bool
        switch (direction, resolution) {
        case (_, .report): carriesOver = false
        case (.pull, .localWins), (.push, .remoteWins): carriesOver = false
        default: carriesOver = true
        }
        guard carriesOver else {
            guard resolution != .report else { return ConflictPlan(actions: [conflict]) }
            return ConflictPlan(
                actions: [conflict], adoption: Adoption(remote: remote, local: local),
                note: "\(remote.path): \(conflict.reason)")
        }
        var carried = transfer()
        carried.resolution = resolution
        if direction == .push {
            // The device's file the upload replaces, as the plan saw it (`ftpsync apply` checks it).
            conflict.destination = remote
            carried.destination = remote
        }
        return ConflictPlan(actions: [conflict, carried])
    }
}

extension ConflictPlan {
    /// A push with `--delete` of a device file deleted here but changed on the device since the
    /// last sync: the conflict action that keeps it, or nil when `local-wins` deletes it.
    /// `report` and `newer-wins` (there is no local time to compare) report it, naming the
    /// option that deletes it; `keep-both` and `remote-wins` keep it as a resolved conflict.
    static func deletedHere(_ entry: SnapshotEntry, policy: ConflictPolicy) -> Action? {
        let why = "deleted here but changed on the device since the last sync"
        var action = Action(kind: .conflict, path: entry.path, source: entry, reason: why)
        switch policy {
        case .localWins:
            return nil
        case .report, .newerWins:
            action.resolution = .report
            action.reason = "\(why); kept: use --on-conflict local-wins to delete it"
        case .keepBoth, .remoteWins:
            action.resolution = .remoteWins
            action.reason = "\(why); kept (\(policy.rawValue))"
        }
        return action
    }
}
