// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree
import SyncCore

extension DeviceRun {
    /// Lists the device folder by folder for `body` (a pull's or a push's folder walk): a
    /// `RemoteWalk` below `job.remoteRoot` over up to `job.connections` connections, listing a
    /// bounded window ahead, ended when `body` returns or throws. The control-listing and plain-LIST quirks
    /// learned earlier are tried first and what this run learned of it is noted (and stored,
    /// outside a dry run), as is the clock offset measured (`ClockOffsetCheck`); the listings'
    /// notes and skipped names go to `report`.
    /// - Returns: what `body` gave, and the folders the device could not list in full (with
    ///   the cause: `DeviceRun.markIncomplete`).
    /// - Throws: what `body` throws (the listing of the root among it); `RunInterrupted` when
    ///   the run was stopped (a signal, a run cap's cut) before every folder was listed: the
    ///   folders left unlisted are the stop's, not the device's failure.
    func walkDevice<Walked>(
        _ remote: RemoteFileSystem, excludes: FilterRules, report: inout DeviceReport,
        _ body: (RemoteWalk) throws -> Walked
    ) throws -> (Walked, unknown: [RelativePath: String]) {
        let quirk = ControlListingQuirk.seed(remote, store: store, device: job.name)
        let plainList = PlainListQuirk.seed(remote, store: store, device: job.name)
        let listings = RemoteWalk(
            RemoteScanner(
                remote: remote, root: job.remoteRoot, excludes: excludes, connections: job.connections,
                openExtra: DeviceRun.extraConnection(job: job, connect: connect), budget: job.listingBudget))
        let walked: Walked
        do {
            defer { listings.end() }
            walked = try body(listings)
        }
        if let note = ControlListingQuirk.conclude(
            remote, stored: quirk, store: store, device: job.name, persist: !job.dryRun,
            hidesDotNames: !listings.assembly.hiddenUnknown.isEmpty)
        {
            report.notes.append(note)
        }
        if let note = PlainListQuirk.conclude(
            remote, stored: plainList, store: store, device: job.name, persist: !job.dryRun)
        {
            report.notes.append(note)
        }
        ClockOffsetCheck.conclude(
            remote, store: store, device: job.name, persist: !job.dryRun, transitions: transitions)
        if !listings.assembly.unknown.isEmpty, let stop = job.cancellation.interruption { throw stop }
        report.notes += listings.assembly.notes
        report.skipped += listings.assembly.skipped
        return (walked, listings.assembly.unknown)
    }
}
