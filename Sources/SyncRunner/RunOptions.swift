// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncConfig
import SyncCore
import SyncEngine

/// What a run does, and the choices that override the devices' configuration.
///
/// A setting a device can also configure has three layers, resolved in one place
/// (`job(for:localRoot:)`): the value set here (a command-line flag) wins over the device's key
/// in the configuration, which wins over the default. The defaults of the run itself are the
/// static members below; nil for an override means "not given".
public struct RunOptions: Sendable, Equatable {
    /// Devices run at the same time when `jobs` is not set.
    public static let defaultJobs = 4
    /// Most devices that may run at the same time.
    public static let maximumJobs = 256
    /// Most deletes a device's plan may hold when `maxDelete` is not set.
    public static let defaultMaxDelete: Int? = 50

    /// Which way the run copies.
    public var direction: SyncDirection
    /// Plan only: take no lock, create nothing, change nothing anywhere; the reports list the
    /// planned actions.
    public var dryRun: Bool
    /// The names of the devices to run (exact); empty runs every device of the configuration.
    public var devices: [String]
    /// `--shard K/N`: only the devices of this shard run; nil runs every device named. A run
    /// refuses a local tree whose state another shard index wrote last (`ShardMismatchError`).
    public var shard: Shard?
    /// Devices run at the same time, each on a thread of its own (1...`maximumJobs`; clamped).
    public var jobs: Int
    /// Also remove what the source side no longer has (`--delete`).
    public var deleteExtraneous: Bool
    /// Most deletes a device's plan may hold before the device is refused; nil: no limit
    /// (`--max-delete -1`).
    public var maxDelete: Int?
    /// What a conflict does (`--on-conflict`); nil: the device's `on_conflict`, else
    /// `ConflictPolicy.defaultPolicy(for: direction)`.
    public var onConflict: ConflictPolicy?
    /// Control connections per device (`--parallel`); nil: the device's `connections`. At least 1.
    public var connections: Int?
    /// The order transfers start in (`--order`); nil: the device's `order`, else the plan's.
    public var order: TransferOrder?
    /// Record a server identity that differs from the recorded one instead of refusing the
    /// device (`--accept-new-identity`); false: the device's `accept_new_identity`.
    public var acceptNewIdentity: Bool
    /// Offload: a pull deletes each device file once its copy here is verified
    /// (`--remove-source`); false: the device's `remove_source`. A push ignores both.
    public var removeSource = false
    /// With the offload: also the device folders it empties (`--remove-source-folders`);
    /// false: the device's `remove_source_folders`.
    public var removeSourceFolders = false
    /// Sync only: start over from the union of both sides, as on a first run (`--resync`).
    public var resync = false
    /// The time conflict copies are named after (UTC); nil: each device's start.
    public var conflictTime: Date?
    /// `ftpsync apply`: the reviewed plan of each device, by name; a device's run carries out
    /// only those of its actions whose files are still as reviewed. Empty for a plain run.
    public var reviewed: [String: ReviewedPlan] = [:]
    /// The most device files one device's offload may delete (an explicit `--max-delete`);
    /// nil: not limited (`SyncPolicy.maxOffload`).
    public var maxOffload: Int?
    /// The filter options (`RunFilters`: the glob rules add to the device's keys, a bound
    /// replaces the key's).
    public var filters = RunFilters()
    /// The caps on one device's listing (`ListingBudget`).
    public var deviceListingLimits: ListingBudget.Limits
    /// The caps on the listings of all devices of the run together.
    public var runListingLimits: ListingBudget.Limits
    /// Ranges a large download is fetched in (`--segments`); nil: each device's `segments`.
    public var segments: Int?
    /// Bytes per second all transfers of the run together may move (`--bwlimit`); nil: no
    /// limit. Each device's `bwlimit` applies besides.
    public var bwlimit: Int64?
    /// Bytes the run moves (downloads and uploads, all devices together) before it stops
    /// starting actions (`--max-transfer`, `RunCaps`); nil: no cap. Not applied to a dry run.
    public var maxTransfer: UInt64?
    /// Seconds since the run started before it stops starting actions (`--max-duration`,
    /// `RunCaps`); nil: no cap. Not applied to a dry run.
    public var maxDuration: Double?

    /// Options with every override unset: each device's configuration, else the defaults.
    public init(
        direction: SyncDirection, dryRun: Bool = false, devices: [String] = [], jobs: Int = RunOptions.defaultJobs,
        deleteExtraneous: Bool = false, maxDelete: Int? = RunOptions.defaultMaxDelete,
        onConflict: ConflictPolicy? = nil, connections: Int? = nil, order: TransferOrder? = nil,
        acceptNewIdentity: Bool = false, deviceListingLimits: ListingBudget.Limits = .device,
        runListingLimits: ListingBudget.Limits = .run, maxTransfer: UInt64? = nil, maxDuration: Double? = nil
    ) {
        self.direction = direction
        self.dryRun = dryRun
        self.devices = devices
        self.jobs = jobs
        self.deleteExtraneous = deleteExtraneous
        self.maxDelete = maxDelete
        self.onConflict = onConflict
        self.connections = connections
        self.order = order
        self.acceptNewIdentity = acceptNewIdentity
        self.deviceListingLimits = deviceListingLimits
        self.runListingLimits = runListingLimits
        self.maxTransfer = maxTransfer
        self.maxDuration = maxDuration
    }

    /// `jobs` within 1...`maximumJobs`.
    var boundedJobs: Int { min(max(1, jobs), Self.maximumJobs) }

    /// The job of one device: these options over the device's keys over the defaults. The
    /// job's listing budget and cancellation are the runner's to set.
    /// - Parameter localRoot: the configuration's local tree (`Configuration.localRoot`).
    public func job(for device: DeviceConfig, localRoot: String) -> DeviceJob {
        var policy = SyncPolicy(
            direction: direction, deleteExtraneous: deleteExtraneous, maxDelete: maxDelete,
            minimumAge: Double(filters.minimumAge(for: device)), onConflict: onConflict ?? device.onConflict)
        policy.bounds = filters.bounds(for: device)
        policy.deviceDotNamesLeftOut = !device.hidden
        if direction == .pull {
            policy.removeSource = removeSource || device.removeSource
            policy.removeSourceFolders = policy.removeSource && (removeSourceFolders || device.removeSourceFolders)
            policy.maxOffload = maxOffload
        }
        var job = DeviceJob(
            name: device.name, remoteRoot: device.remote,
            paths: LocalPaths(treeRoot: localRoot, deviceRoot: device.localPath, device: device.name),
            filter: filters.rules(for: device), timeZone: device.timezone, policy: policy, dryRun: dryRun)
        job.retries = device.retries
        job.connections = max(1, connections ?? device.connections)
        job.maxConnections = max(job.connections, device.maxConnections)
        job.order = order ?? device.order
        job.segments = min(16, max(1, segments ?? device.segments))
        job.segmentThreshold = UInt64(max(1, device.segmentThreshold))
        job.verify = device.verify
        job.acceptNewIdentity = acceptNewIdentity || device.acceptNewIdentity
        job.resync = resync && direction == .sync
        job.conflictTime = conflictTime
        job.reviewed = reviewed[device.name]
        job.host = device.host.contains(":") ? "[\(device.host)]:\(device.port)" : "\(device.host):\(device.port)"
        return job
    }
}
