// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import SyncEngine

/// Runs of more devices than this sum up in one line those with nothing to report.
let quietDevicesListed = 20

/// Devices not synced named in the last line of a report that sums up quiet devices.
let notSyncedNamed = 10

/// The devices of a large run's text report that need no lines of their own (issue 24): ok,
/// nothing left, nothing skipped, and no action to list (none, or only done ones already
/// printed while the run went). They are counted, and their notes printed once per text with
/// the number of devices that had it (a first pull of 1,000 devices gave every device the
/// same two notes: 4,000 lines).
struct QuietDevices {
    /// Devices summed up, of them those that did something (their actions printed above).
    private(set) var count = 0
    private(set) var changed = 0
    /// Their files left as they were.
    private(set) var unchanged = 0
    /// Each note's text, in the order first seen, with the devices that had it.
    private var notes: [(text: String, devices: [String])] = []
    private var noteIndex: [String: Int] = [:]

    /// Whether `device` needs no lines of its own; `actionsPrinted` as `writeTextReport`'s.
    static func takes(_ device: DeviceReport, actionsPrinted: Bool) -> Bool {
        guard device.status == .ok, device.left == nil, device.skipped.isEmpty else { return false }
        return device.actions.isEmpty || (actionsPrinted && device.actions.count(.done) == device.actions.count)
    }

    /// Counts `device` in (one that `takes` accepts).
    mutating func add(_ device: DeviceReport) {
        count += 1
        if !device.actions.isEmpty { changed += 1 }
        unchanged += device.unchanged
        for note in device.notes {
            if let index = noteIndex[note] {
                notes[index].devices.append(device.name)
            } else {
                noteIndex[note] = notes.count
                notes.append((note, [device.name]))
            }
        }
    }

    /// The lines (each with its line feed): a note had by one device as in its own block, one
    /// had by several once with their count, then the count of the devices; nothing when none.
    /// - Parameter total: the devices of the run (all of them quiet: "1000 devices ok").
    func lines(total: Int) -> [String] {
        guard count > 0 else { return [] }
        var out: [String] = []
        for note in notes {
            let whose =
                note.devices.count == 1
                ? printable(note.devices[0]) : "\(note.devices.count) devices"
            out.append("\(whose): note: \(printable(note.text))\n")
        }
        let noun = count == total ? "device" : "other device"
        let idle = count - changed
        if changed == 0 {
            out.append("\(counted(count, noun)) ok, nothing to do (\(unchanged) in sync)\n")
        } else {
            let done = "\(changed) with their actions listed above"
            let rest = idle > 0 ? ", \(idle) with nothing to do" : ""
            out.append("\(counted(count, noun)) ok: \(done)\(rest) (\(unchanged) in sync)\n")
        }
        return out
    }
}
