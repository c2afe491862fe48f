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

    /// Runs `device` to its end; never throws (a device that cannot run is reported failed, one
    /// a run cap keeps from starting `stopped`).
    func run(_ device: DeviceConfig) -> DeviceReport {
        if let problem = device.problem { return refusedSettings(device, problem: problem) }
        if let cap = caps?.reached { return notStarted(device, cap: cap) }
        var job = options.job(for: device, localRoot: localRoot)
        job.cancellation = caps?.cancellation ?? cancellation
        job.caps = caps
        let budget = ListingBudget(
            owner: "device \(device.name)", limits: options.deviceListingLimits, parent: runListingBudget)
        job.listingBudget = budget
        let name = device.name
        let log = commandLog.map { log in { @Sendable line in log(name, line) } }
        let connect = { () throws -> RemoteFileSystem in
            let remote: FTPRemote
            do {
                remote = try FTPRemote.connect(device.sessionConfiguration, timeZone: device.timezone, log: log)
            } catch {
                throw device.explainingLogin(error)
            }
            remote.listingBudget = budget
            return remote
        }
        // The one place a device run starts.
        return DeviceRun(job: job, store: store, events: events, connect: connect).run()
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
