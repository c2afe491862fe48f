// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation
import SyncConfig
import SyncEngine
import SyncStore

/// Starts one device's run on the calling thread: its job from the run's options, a connection
/// maker from its session settings, and the engine of the run's direction.
struct DeviceStart: Sendable {
    let options: RunOptions
    let localRoot: String
    let store: StateStore?
    let events: SyncEventHandler?
    /// Told each FTP command and reply of a device (PASS masked), with the device's name.
    let commandLog: (@Sendable (_ device: String, _ line: String) -> Void)?
    let cancellation: CancellationToken
    /// The run's caps (`--max-transfer`, `--max-duration`); nil: none (or a dry run).
    let caps: RunCaps?
    /// The run's listing budget every device's own budget draws on as well.
    let runListingBudget: ListingBudget
    /// The run's bandwidth cap (`--bwlimit`) every device's transfers share; nil: none.
    var runBandwidth: BandwidthLimit?

    /// Runs `device` to its end; never throws (a device that cannot run is reported failed, one
    /// a run cap keeps from starting `stopped`).
    func run(_ device: DeviceConfig) -> DeviceReport {
        if let problem = device.problem { return refusedSettings(device, problem: problem) }
        if let cap = caps?.reached { return notStarted(device, cap: cap) }
        var job = options.job(for: device, localRoot: localRoot)
        // A server that refused a connection in an earlier run (421) gets no more than it took,
        // for listings and transfers alike.
        if let limit = (try? store?.connectionLimit(device: device.name)) ?? nil {
            job.connections = min(job.connections, limit)
            job.maxConnections = min(job.maxConnections, limit)
        }
        job.cancellation = caps?.cancellation ?? cancellation
        job.caps = caps
        let budget = ListingBudget(
            owner: "device \(device.name)", limits: options.deviceListingLimits, parent: runListingBudget)
        job.listingBudget = budget
        let name = device.name
        let log = commandLog.map { log in { @Sendable line in log(name, line) } }
        var configuration = device.sessionConfiguration
        // The device's cap is shared by all its connections, the run's by all devices.
        configuration.bandwidthLimits = [Self.bandwidthLimit(of: device), runBandwidth].compactMap { $0 }
        // A stop (SIGTERM, a run cap's cut) ends a wait for bandwidth, or for a server slow to
        // greet or answer the login, at once.
        let stop = job.cancellation
        configuration.pacingStop = PacingStop { stop.interruption }
        let quirks = [SessionQuirk.Kind.keepalive, .pipelining, .hashProbe].map {
            SessionQuirk($0, store: store, device: name)
        }
        let connect = { () throws -> RemoteFileSystem in
            let remote: FTPRemote
            do {
                remote = try FTPRemote.connect(configuration, timeZone: device.timezone, log: log)
            } catch {
                throw device.explainingLogin(error)
            }
            remote.listingBudget = budget
            for quirk in quirks { quirk.watch(remote.session) }
            return remote
        }
        // The one place a device run starts.
        let run = DeviceRun(job: job, store: store, events: events, connect: connect)
        let persist = !options.dryRun
        run.finishing = { report in
            for quirk in quirks { quirk.conclude(&report, persist: persist) }
        }
        return run.run()
    }

    /// The cap of `device`'s own transfers: its `bwlimit` schedule (read as the transfers go)
    /// or rate; nil for none.
    static func bandwidthLimit(of device: DeviceConfig) -> BandwidthLimit? {
        if let schedule = device.bwlimitSchedule {
            return BandwidthLimit { date in schedule.rate(at: date).map { Int(clamping: $0) } }
        }
        return device.bwlimit.map { BandwidthLimit(bytesPerSecond: Int(clamping: $0)) }
    }

    /// The report of a device whose settings cannot work (`DeviceConfig.problem`): failed,
    /// nothing connected or changed; the other devices run.
    private func refusedSettings(_ device: DeviceConfig, problem: String) -> DeviceReport {
        events?(.deviceStarted(device: device.name))
        var report = DeviceReport(name: device.name)
        report.status = .failed
        report.error = "configuration: " + problem
        events?(.deviceFinished(device: device.name, report: report))
        return report
    }

    /// The report of a device not started because the run reached `cap` first: stopped, nothing
    /// connected, changed or recorded; the next run syncs it.
    private func notStarted(_ device: DeviceConfig, cap: RunCap) -> DeviceReport {
        events?(.deviceStarted(device: device.name))
        var report = DeviceReport(name: device.name)
        report.status = .stopped
        report.error = "not started: \(cap.option) was reached before this device's turn; the next run syncs it"
        report.left = .notStarted
        events?(.deviceFinished(device: device.name, report: report))
        return report
    }
}
