// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

// Benchmark: plans a pull of N remote entries (files in folders of 1,000) with PullPlanner and
// prints the CPU time of `plan` alone, for two cases: a first pull (nothing local, no records)
// and a no-op pull (local and records match the remote). Built by run.sh together with
// Sources/SyncCore/*.swift into one optimised executable; peak RSS is measured from outside.
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count == 2, let count = Int(arguments[1]), count > 0 else {
    print("usage: planner ENTRIES")
    exit(2)
}
let perFolder = 1000
let folders = (count + perFolder - 1) / perFolder
let time = FileTime(seconds: 1_700_000_000, granularity: .second)
var remoteEntries: [SnapshotEntry] = []
var localEntries: [SnapshotEntry] = []
var records: [RelativePath: FileRecord] = [:]
remoteEntries.reserveCapacity(count + folders)
records.reserveCapacity(count)
do {
    for f in 0..<folders {
        let folder = try RelativePath(validating: "folder-\(f)")
        remoteEntries.append(SnapshotEntry(path: folder, kind: .directory))
        localEntries.append(SnapshotEntry(path: folder, kind: .directory))
        for i in 0..<min(perFolder, count - f * perFolder) {
            let path = try RelativePath(validating: "folder-\(f)/file-\(i).jpg")
            let size = UInt64(4096 + i)
            remoteEntries.append(SnapshotEntry(path: path, kind: .file, size: size, modified: time))
            localEntries.append(SnapshotEntry(path: path, kind: .file, size: size, modified: time))
            records[path] = FileRecord(
                path: path, remoteSize: size, remoteModified: time, localSize: size, localModified: time,
                digest: nil)
        }
    }
} catch {
    print("bad path: \(error)")
    exit(1)
}
let remote = Snapshot(remoteEntries)
let local = Snapshot(localEntries)
remoteEntries = []
localEntries = []
let planner = PullPlanner(policy: SyncPolicy(direction: .pull))

var c0 = cpuSeconds()
var w0 = wallSeconds()
let first = planner.plan(remote: remote, local: Snapshot([]), records: [:], partials: [:])
print(
    String(
        format: "first pull: %d entries -> %d actions, plan wall %.3f s, CPU %.3f s", remote.entries.count,
        first.plan.actions.count, wallSeconds() - w0, cpuSeconds() - c0))
c0 = cpuSeconds()
w0 = wallSeconds()
let noop = planner.plan(remote: remote, local: local, records: records, partials: [:])
print(
    String(
        format: "no-op pull: %d entries -> %d actions, plan wall %.3f s, CPU %.3f s", remote.entries.count,
        noop.plan.actions.count, wallSeconds() - w0, cpuSeconds() - c0))
