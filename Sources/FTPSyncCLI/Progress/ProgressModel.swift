// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import SyncEngine

/// A transfer rate measured over a sliding window of recent samples.
struct RateWindow {
    /// How far back samples count, in seconds.
    var span: Double = 5
    private var samples: [(time: Double, bytes: UInt64)] = []

    /// Records that `bytes` (a running count) were reached at `time` (seconds, monotonic).
    /// Samples closer than 50 ms to the one before replace it, so the window stays small.
    mutating func sample(_ bytes: UInt64, at time: Double) {
        if let last = samples.last, bytes < last.bytes { samples.removeAll() }  // restarted
        if samples.count > 1, let last = samples.last, time - samples[samples.count - 2].time < 0.05,
            time >= last.time
        {
            samples.removeLast()
        }
        samples.append((time, bytes))
        while samples.count > 2, let first = samples.first, time - first.time > span { samples.removeFirst() }
    }

    /// Bytes per second over the window; nil until the samples span at least half a second.
    var bytesPerSecond: Double? {
        guard let first = samples.first, let last = samples.last, last.time - first.time >= 0.5 else { return nil }
        return Double(Saturating.subtract(last.bytes, first.bytes)) / (last.time - first.time)
    }
}

/// What the progress display knows of a run, built from `SyncEvent`s; turns into the lines of
/// the display. Not thread-safe: `TerminalProgress` guards it.
struct ProgressModel {
    /// A transfer under way.
    struct Transfer {
        /// The path as shown (`printable`: escaped before it is fitted to the width).
        var path: String
        var upload: Bool
        /// Bytes the file holds so far (the resume offset included).
        var done: UInt64
        /// Where this transfer started (the resume offset), in bytes.
        var start: UInt64
        var total: UInt64?
        var rate = RateWindow()
    }

    /// One device's run.
    struct Device {
        var name: String
        var planned = false
        /// Transfers (downloads, uploads) in the plan, and how many of them ended.
        var files = 0
        var filesDone = 0
        /// Actions in the plan, and how many of them ended.
        var actions = 0
        var actionsDone = 0
        var failed = 0
        /// Bytes the plan's transfers move, and the bytes moved by the transfers that ended.
        var bytesTotal: UInt64 = 0
        var bytesFinished: UInt64 = 0
        var active: [Int: Transfer] = [:]
        var ended: Set<Int> = []
        var rate = RateWindow()

        /// Bytes moved so far: the ended transfers and what the active ones moved.
        var bytesDone: UInt64 {
            Saturating.add(bytesFinished, Saturating.sum(active.values.map { Saturating.subtract($0.done, $0.start) }))
        }
    }

    /// Devices running, in the order they started; finished ones are dropped.
    private(set) var devices: [Device] = []
    /// Devices the run has (its selection), once known; with more than one, the display starts
    /// with a line counting them (`fleetLine`).
    var devicesInRun: Int?
    /// Devices that finished, and of them those that failed or were refused.
    private(set) var devicesFinished = 0
    private(set) var devicesFailed = 0

    /// Takes one event in, received at `time` (seconds, monotonic).
    mutating func apply(_ event: SyncEvent, at time: Double) {
        switch event {
        case .deviceStarted(let name):
            devices.removeAll { $0.name == name }
            devices.append(Device(name: name))
        case .planned(let name, let actions, let transfers, let bytes):
            update(name) {
                $0.planned = true
                $0.actions = actions
                $0.files = transfers
                $0.bytesTotal = bytes
                $0.rate.sample(0, at: time)
            }
        case .actionStarted(let name, let id, let action):
            guard action.kind == .download || action.kind == .upload else { return }
            update(name) {
                var transfer = Transfer(
                    path: printable(action.path.string), upload: action.kind == .upload, done: action.offset,
                    start: action.offset, total: Saturating.add(action.offset, action.bytes))
                transfer.rate.sample(action.offset, at: time)
                $0.active[id] = transfer
            }
        case .transferProgress(let name, let id, let done, let total):
            update(name) {
                guard var transfer = $0.active[id] else { return }
                if done < transfer.start { transfer.start = done }  // restarted from an earlier offset
                transfer.done = done
                if let total { transfer.total = total }
                transfer.rate.sample(done, at: time)
                $0.active[id] = transfer
                $0.rate.sample($0.bytesDone, at: time)
            }
        case .actionFinished(let name, let id, let report):
            update(name) { device in
                let transfer = device.active.removeValue(forKey: id)
                guard device.ended.insert(id).inserted else { return }
                device.actionsDone += 1
                if report.status == .failed { device.failed += 1 }
                guard report.kind == .download || report.kind == .upload else { return }
                device.filesDone += 1
                let moved = transfer.map { Saturating.subtract($0.done, $0.start) } ?? 0
                if report.status == .done {
                    device.bytesFinished = Saturating.add(device.bytesFinished, max(moved, report.bytes))
                } else {
                    // What a failed transfer did not move is no longer expected.
                    device.bytesFinished = Saturating.add(device.bytesFinished, moved)
                    device.bytesTotal = Saturating.subtract(device.bytesTotal, Saturating.subtract(report.bytes, moved))
                }
            }
        case .deviceFinished(let name, let report):
            devices.removeAll { $0.name == name }
            devicesFinished += 1
            if report.status == .failed || report.status == .refused { devicesFailed += 1 }
        }
    }

    /// Samples the rates at `time` (seconds, monotonic); called before each redraw.
    mutating func sample(at time: Double) {
        for index in devices.indices {
            var device = devices[index]
            device.rate.sample(device.bytesDone, at: time)
            for (id, transfer) in device.active {
                var sampled = transfer
                sampled.rate.sample(transfer.done, at: time)
                device.active[id] = sampled
            }
            devices[index] = device
        }
    }

    /// The display: for a run of several devices a line counting them (`fleetLine`), then per
    /// device a total line and a line per active transfer, each at most `width` columns, at
    /// most `height` lines in all (transfers are left out first; devices that do not fit are
    /// counted on the last line).
    func lines(width: Int, height: Int) -> [String] {
        var result: [String] = []
        let limit = max(1, height)
        var height = height
        if let total = devicesInRun, total > 1, height > 1 {
            result.append(ProgressFormat.fit(fleetLine(total), width: width))
            height -= 1
        }
        let shown = devices.count > height ? max(0, height - 1) : devices.count
        let transferBudget = max(0, height - devices.count)
        var transfersShown = 0
        for device in devices.prefix(shown) {
            result.append(ProgressFormat.fit(deviceLine(device), width: width))
            for (_, transfer) in device.active.sorted(by: { $0.key < $1.key }) {
                guard transfersShown < transferBudget else { break }
                result.append(transferLine(transfer, width: width))
                transfersShown += 1
            }
        }
        if shown < devices.count {
            result.append(ProgressFormat.fit("… and \(devices.count - shown) more devices running", width: width))
        }
        return Array(result.prefix(limit))
    }

    /// `devices  312/1000 done  8 running  2 failed`.
    func fleetLine(_ total: Int) -> String {
        var line = "devices  \(devicesFinished)/\(total) done  \(devices.count) running"
        if devicesFailed > 0 { line += "  \(devicesFailed) failed" }
        return line
    }

    /// `cam  3/10 files  12.5 MiB of 40.0 MiB  31%  1.2 MiB/s  ETA 0:23`.
    func deviceLine(_ device: Device) -> String {
        guard device.planned else { return "\(device.name)  connecting and listing…" }
        if device.files == 0 {
            return "\(device.name)  \(device.actionsDone)/\(device.actions) actions"
        }
        let done = device.bytesDone
        let rate = device.rate.bytesPerSecond
        let eta = rate.flatMap { $0 > 0 ? Double(Saturating.subtract(device.bytesTotal, done)) / $0 : nil }
        var line = "\(device.name)  \(device.filesDone)/\(device.files) files  "
        line += "\(formatBytes(done)) of \(formatBytes(device.bytesTotal))  "
        line += ProgressFormat.percent(done, of: device.bytesTotal).trimmingCharacters(in: .whitespaces)
        line += "  \(ProgressFormat.rate(rate))  ETA \(ProgressFormat.duration(eta))"
        if device.failed > 0 { line += "  \(device.failed) failed" }
        return line
    }

    /// `  ↓  40%  4.0 MiB of 10.0 MiB  1.1 MiB/s  DCIM/a.jpg`, the path cut from its start to fit.
    func transferLine(_ transfer: Transfer, width: Int) -> String {
        var head =
            "  " + (transfer.upload ? "↑" : "↓") + " " + ProgressFormat.percent(transfer.done, of: transfer.total)
        let size = transfer.total.map { " of " + formatBytes($0) } ?? ""
        head += "  " + ProgressFormat.padLeft(formatBytes(transfer.done) + size, 20)
        head += "  " + ProgressFormat.padLeft(ProgressFormat.rate(transfer.rate.bytesPerSecond), 10) + "  "
        let room = width - ProgressFormat.columns(head)
        guard room >= 8 else { return ProgressFormat.fit(head + transfer.path, width: width) }
        return head + ProgressFormat.fitKeepingEnd(transfer.path, width: room)
    }

    private mutating func update(_ name: String, _ change: (inout Device) -> Void) {
        guard let index = devices.firstIndex(where: { $0.name == name }) else { return }
        change(&devices[index])
    }
}
