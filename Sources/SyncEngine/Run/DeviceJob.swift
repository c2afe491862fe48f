// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPListing
import Foundation
import SyncCore

/// Everything one device's run needs, resolved from the configuration and the command line.
public struct DeviceJob: Sendable {
    /// The device's name (unique in the configuration).
    public var name: String
    /// The remote root (`remote`), an absolute path on the server.
    public var remoteRoot: String
    /// Local folders of this device.
    public var paths: LocalPaths
    /// The glob rules deciding which paths both sides show, in order (`FilterRules`,
    /// `FilterRule.combining`); the size and age bounds are the policy's (`SyncPolicy.bounds`).
    public var filter: [FilterRule]
    /// Time zone of LIST times.
    public var timeZone: TimeZone
    /// Direction, deletes, delete limit.
    public var policy: SyncPolicy
    /// Plan only: change nothing anywhere.
    public var dryRun: Bool
    /// Retries of a remote operation that failed transiently (the config's `retries`).
    public var retries: Int = 3
    /// Control connections a run of transfers starts with (transfers are spread over them); at least 1.
    public var connections = 1
    /// The most connections a run of transfers grows to while each one added makes it faster
    /// (`ConnectionGrowth`); at least `connections`.
    public var maxConnections = 1
    /// Ranges a download of at least `segmentThreshold` bytes is fetched in, each over its own
    /// connection (`segments`, `--segments`); 1: whole.
    public var segments = 1
    /// Bytes from which a download is fetched in `segments`.
    public var segmentThreshold: UInt64 = 64 << 20

    /// The sessions a download fetched in segments opens beside its connection's: one per range
    /// but the first, and no more than `maxConnections` leaves beside the run's `connections`
    /// (a server that refused connections before gets no more than it took).
    public var segmentSiblings: Int { max(0, min(segments - 1, maxConnections - connections)) }
    /// How transfers are checked against the server's hash of the file (`verify`).
    public var verify = VerifyMode.auto
    /// The order transfers start in (`--order`, the device's `order`); nil: the plan's.
    public var order: TransferOrder?
    /// Record a server identity that differs from the recorded one instead of refusing the device.
    public var acceptNewIdentity = false
    /// A sync that starts over (`--resync`): the records of the last sync are set aside and the
    /// plan is the first run's (the union of both sides, nothing deleted). Sync only.
    public var resync = false
    /// `ftpsync apply`: the reviewed plan; only its actions whose files are as it saw them are
    /// carried out (`ReviewFilter`). Nil for an ordinary run.
    public var reviewed: ReviewedPlan?
    /// The time a sync's conflict copies are named after (UTC); nil: when the device's run
    /// starts. `ftpsync apply` sets the reviewed plan's, so its copies get the names the plan
    /// showed (the trash stays named after the run itself).
    public var conflictTime: Date?
    /// `host:port` of the device, for messages.
    public var host = ""
    /// The device's budget for listings, the one its connections (`FTPRemote.listingBudget`)
    /// charge; the listing ends with its `failure` when it has one. Nil: no budget.
    public var listingBudget: ListingBudget?
    /// The caller's stop request: once cancelled, no new action starts and a transfer stops at
    /// its next chunk (`RunInterrupted`). A fresh token by default, never cancelled.
    public var cancellation = CancellationToken()
    /// The run's caps (`--max-transfer`, `--max-duration`), shared by its devices; nil: none.
    /// With caps, `cancellation` is their token (`RunCaps.cancellation`), which a cap cuts by.
    public var caps: RunCaps?

    public init(
        name: String, remoteRoot: String, paths: LocalPaths, filter: [FilterRule], timeZone: TimeZone,
        policy: SyncPolicy, dryRun: Bool
    ) {
        self.name = name
        self.remoteRoot = remoteRoot
        self.paths = paths
        self.filter = filter
        self.timeZone = timeZone
        self.policy = policy
        self.dryRun = dryRun
    }
}
