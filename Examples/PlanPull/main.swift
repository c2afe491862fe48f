// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

// plan-pull-example: the ftpsync library in a few steps. Loads a configuration, connects to one
// device with FTPRemote, lists its whole tree, and prints what a first `ftpsync pull` would do
// (as if nothing had been synced before). Changes nothing, locally or on the server.
//
//   swift run plan-pull-example Examples/device.yaml front-camera
import FTPClient
import FTPListing
import Foundation
import SyncConfig
import SyncCore
import SyncEngine
import SyncRunner

/// Something went wrong; the message is printed and the program exits 1.
struct ExampleError: Error, CustomStringConvertible {
    var description: String
}

/// Lists `root` on the server and every folder below it into one snapshot; names the server
/// sends that cannot be a path (`/`, NUL, `..`) are skipped, links are not followed.
func scanDevice(_ remote: FTPRemote, root: String) throws -> Snapshot {
    var entries: [SnapshotEntry] = []
    var pending: [RelativePath] = [.root]
    while let folder = pending.popLast() {
        let path = remotePath(root: root, relative: folder.string)
        for item in try remote.list(path).entries {
            guard let child = try? folder.appending(validating: item.name) else { continue }
            let kind: EntryKind
            switch item.type {
            case .file: kind = .file
            case .dir: kind = .directory
            case .link: kind = .symlink
            case .other: kind = .other
            }
            let modified = item.modified.map { time in
                let granularity: TimeGranularity
                switch time.precision {
                case .day: granularity = .day
                case .minute: granularity = .minute
                case .second: granularity = .second
                case .subsecond: granularity = .exact
                }
                return FileTime(date: time.date, granularity: granularity)
            }
            entries.append(
                SnapshotEntry(path: child, kind: kind, size: item.sizeIsExact ? item.size : nil, modified: modified))
            if kind == .directory { pending.append(child) }
        }
    }
    return Snapshot(entries)
}

func main() throws {
    let arguments = CommandLine.arguments
    guard arguments.count == 3 else {
        throw ExampleError(description: "usage: plan-pull-example CONFIG DEVICE")
    }
    // 1. The configuration: every key validated, defaults applied, password_env resolved.
    let configuration = try ConfigLoader.load(path: arguments[1], environment: ProcessInfo.processInfo.environment)
    guard let device = configuration.device(named: arguments[2]) else {
        let names = configuration.devices.map(\.name).joined(separator: ", ")
        throw ExampleError(description: "no device '\(arguments[2])' (devices: \(names))")
    }

    // 2. One control connection to the device, logged in with the device's own session
    //    settings (TLS and its certificate check, encoding, passive policy, timeout).
    let remote = try FTPRemote.connect(device.sessionConfiguration, timeZone: device.timezone, log: nil)
    defer { remote.close() }

    // 3. The device's tree, and a plan that pulls it into an empty local folder.
    let snapshot = try scanDevice(remote, root: device.remote)
    let planner = PullPlanner(policy: SyncPolicy(direction: .pull))
    let result = planner.plan(remote: snapshot, local: Snapshot([]), records: [:], partials: [:])

    // 4. The plan.
    print("\(device.name): \(snapshot.entries.count) entries under \(device.remote) -> \(device.localPath)")
    for action in result.plan.actions {
        var line = "  \(action.kind.rawValue) \(action.path)"
        if action.kind == .download { line += " (\(action.bytes) bytes)" }
        print(line)
    }
    for note in result.plan.notes { print("  note: \(note)") }
    print("\(result.plan.count(.download)) downloads, \(result.plan.count(.mkdirLocal)) folders to make")
}

do {
    try main()
} catch {
    FileHandle.standardError.write(Data("plan-pull-example: \(error)\n".utf8))
    exit(1)
}
