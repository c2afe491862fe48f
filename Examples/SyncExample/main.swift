// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

// sync-example: the public runner in a few lines. Pulls every device of a configuration into
// its local tree (lock, state, resume and safety checks as `ftpsync pull`), printing progress
// as it happens and the report at the end.
//
//   swift run sync-example Examples/device.yaml
import Foundation
import SyncConfig
import SyncEngine
import SyncRunner

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: sync-example CONFIG\n".utf8))
    exit(2)
}

do {
    // The configuration: every key validated, defaults applied, password_env resolved.
    let configuration = try ConfigLoader.load(
        path: CommandLine.arguments[1], environment: ProcessInfo.processInfo.environment)
    let runner = try SyncRunner(configuration: configuration, options: RunOptions(direction: .pull))

    // Ctrl-C stops the run at its next safe point; what is unfinished resumes next time.
    signal(SIGINT, SIG_IGN)
    let interrupt = DispatchSource.makeSignalSource(signal: SIGINT)
    interrupt.setEventHandler { runner.cancellation.cancel() }
    interrupt.resume()

    // Progress: one line per event, read from the runner's stream while the devices run.
    let events = runner.eventStream()
    let printer = Task {
        for await event in events {
            switch event {
            case .deviceStarted(let device): print("\(device): started")
            case .planned(let device, let actions, _, let bytes):
                print("\(device): \(actions) actions, \(bytes) bytes")
            case .actionFinished(let device, _, let report):
                print("\(device): \(report.status.rawValue) \(report.kind.rawValue) \(report.path)")
            case .deviceFinished(let device, let report): print("\(device): \(report.status.rawValue)")
            default: break
            }
        }
    }

    let result = try await runner.runInBackground()
    await printer.value
    switch result {
    case .locked(let held):
        print("sync-example: \(held)")
        exit(3)
    case .finished(let reports):
        for report in reports {
            let stats = report.stats
            print(
                "\(report.name): \(report.status.rawValue), \(stats.filesTransferred) files, "
                    + "\(stats.bytesTransferred) bytes in \(String(format: "%.1f", report.seconds)) s")
            if let error = report.error { print("  error: \(error)") }
        }
        exit(reports.allSatisfy { $0.status == .ok } ? 0 : 1)
    }
} catch {
    // A configuration that cannot be used is a usage error (exit 2), as for `ftpsync pull`.
    FileHandle.standardError.write(Data("sync-example: \(error)\n".utf8))
    exit(error is ConfigError || error is UnknownDeviceError ? 2 : 1)
}
