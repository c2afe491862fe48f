// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Which way a run copies.
public enum SyncDirection: String, Sendable, Hashable, Codable {
    /// Device → local tree.
    case pull
    /// Local tree → device.
    case push
    /// Both ways, against the records of the last sync (`ftpsync sync`, `SyncPlanner`).
    case sync
}

/// The user's choices that shape a plan.
public struct SyncPolicy: Sendable, Hashable {
    public var direction: SyncDirection
    /// Also remove what the source side no longer has (`--delete`).
    public var deleteExtraneous: Bool
    /// Most deletes a plan may hold before the device run is refused; nil means no limit.
    public var maxDelete: Int?
    /// Seconds: a pull leaves a source file modified less than this long before `now` (still
    /// being written) for a later run; 0 turns the check off.
    public var minimumAge: Double
    /// The clock (UTC) the minimum age is measured against; passed in, never read here.
    public var now: Date
    /// What a conflict does (`--on-conflict`); default `keep-both` for a pull, `report` for a push.
    public var onConflict: ConflictPolicy
    /// A pull deletes each device file once its copy here is verified (`--remove-source`,
    /// `Offload`): the planner plans a `delete_remote` for it, the engine checks before DELE.
    public var removeSource = false
    /// With `removeSource`: also the device folders (never the root) the offload empties
    /// (`--remove-source-folders`).
    public var removeSourceFolders = false
    /// Most device files an offload may delete before the device's plan is refused as a whole;
    /// nil: not limited (the automatic `maxDelete` guards against a broken listing, which an
    /// offload cannot turn into deletes: it deletes only what the listing shows).
    public var maxOffload: Int?
    /// The size and age bounds of the files both sides show (`FileBounds`); none by default.
    public var bounds = FileBounds()
    /// True when the filters leave dot-names out (`hidden: false`) and the device's folders
    /// may hold some the listing never shows: a device folder is then never cleared for a
    /// local file of its name (`TypeChanges`); false by default.
    public var deviceDotNamesLeftOut = false

    public init(
        direction: SyncDirection, deleteExtraneous: Bool = false, maxDelete: Int? = 50, minimumAge: Double = 0,
        now: Date = .distantFuture, onConflict: ConflictPolicy? = nil
    ) {
        self.onConflict = onConflict ?? ConflictPolicy.defaultPolicy(for: direction)
        self.direction = direction
        self.deleteExtraneous = deleteExtraneous
        self.maxDelete = maxDelete
        self.minimumAge = minimumAge
        self.now = now
    }
}
