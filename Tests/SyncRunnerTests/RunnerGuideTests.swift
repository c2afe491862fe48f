// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import FTPTestSupport
import Foundation
import SyncConfig
import SyncEngine
import Testing

@testable import SyncRunner

/// The "Running a sync" section of docs/library.md, run as written against a pyftpdlib server
/// on 127.0.18.4 (FTPTestSupport's `PythonFTPServer`). `FTPClientTests.LibraryGuideTests`
/// checks that every block of the page appears here or in its own file.
@Suite(.serialized) struct RunnerGuideTests {
    /// A pyftpdlib server serving a fresh folder with two clips on 127.0.18.4, stopped when released.
    final class GuideServer {
        let root = NSTemporaryDirectory() + "runner-guide-\(UUID().uuidString.prefix(8))"
        private let server: PythonFTPServer
        var port: Int { server.port }

        init() throws {
            try FileManager.default.createDirectory(atPath: root + "/DCIM", withIntermediateDirectories: true)
            try Data("clip one\n".utf8).write(to: URL(fileURLWithPath: root + "/DCIM/one.mp4"))
            try Data("clip two\n".utf8).write(to: URL(fileURLWithPath: root + "/DCIM/two.mp4"))
            server = try PythonFTPServer(host: "127.0.18.4", root: root, user: "guide", password: "guide-pw")
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }
    }

    /// A configuration file for the server, with its local tree beside it.
    private func writeConfiguration(port: Int) throws -> String {
        let folder = NSTemporaryDirectory() + "runner-guide-local-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let yaml = """
            local: ./mirror
            devices:
              - name: camera
                host: 127.0.18.4
                port: \(port)
                user: guide
                password_env: CAMERA_PASSWORD
                remote: /DCIM
            """
        try Data(yaml.utf8).write(to: URL(fileURLWithPath: folder + "/device.yaml"))
        return folder + "/device.yaml"
    }

    /// The configuration of `server` as the guide loads it (the password from the environment).
    private func loadConfiguration(_ server: GuideServer) throws -> Configuration {
        let (configPath, environment) = try guideInputs(server)
        return try ConfigLoader.load(path: configPath, environment: environment)
    }

    /// The guide's `configPath` and `environment` for `server`.
    private func guideInputs(_ server: GuideServer) throws -> (String, [String: String]) {
        let configPath = try writeConfiguration(port: server.port)
        var environment = ProcessInfo.processInfo.environment
        environment["CAMERA_PASSWORD"] = "guide-pw"
        return (configPath, environment)
    }

    @Test func theRunnerGuidePullsADevice() throws {
        let server = try GuideServer()
        let (configPath, environment) = try guideInputs(server)

        let configuration = try ConfigLoader.load(path: configPath, environment: environment)
        var options = RunOptions(direction: .pull)
        options.devices = ["camera"]
        options.deleteExtraneous = false
        let runner = try SyncRunner(
            configuration: configuration, options: options,
            events: { event in
                if case .actionFinished(let device, _, let report) = event {
                    print("\(device): \(report.status.rawValue) \(report.path)")
                }
            })
        switch try runner.run() {
        case .locked(let held):
            print("another run is busy: \(held)")
        case .finished(let reports):
            for report in reports {
                print(report.name, report.status.rawValue, report.stats.filesTransferred, report.error ?? "")
            }
        }

        let mirror = configuration.localRoot + "/camera"
        #expect(FileManager.default.contents(atPath: mirror + "/one.mp4") == Data("clip one\n".utf8))
        #expect(FileManager.default.contents(atPath: mirror + "/two.mp4") == Data("clip two\n".utf8))
    }

    @Test func theAsyncGuideStreamsEventsAndCancels() async throws {
        let server = try GuideServer()
        let configuration = try loadConfiguration(server)

        let runner = try SyncRunner(configuration: configuration, options: RunOptions(direction: .pull))
        let events = runner.eventStream()
        let watcher = Task {
            var finished = 0
            for await event in events {
                if case .actionFinished = event { finished += 1 }
            }
            return finished
        }
        let result = try await runner.runInBackground()
        let finished = await watcher.value

        #expect(result.reports.first?.status == .ok)
        #expect(finished == 2)
    }

    @Test func theStopGuideEndsTheDevicesPartial() throws {
        let server = try GuideServer()
        let configuration = try loadConfiguration(server)

        let token = CancellationToken()
        let stoppable = try SyncRunner(
            configuration: configuration, options: RunOptions(direction: .pull), cancellation: token)
        token.cancel()  // a Stop button, from any thread
        let stopped = try stoppable.run()

        #expect(stopped.reports.map(\.status) == [.partial])
        #expect(stopped.reports.first?.error == RunInterrupted().description)
        #expect(!FileManager.default.fileExists(atPath: configuration.localRoot + "/camera/one.mp4"))
    }

    @Test func theSessionMappingGuideConnectsLikeARun() throws {
        let server = try GuideServer()
        let configuration = try loadConfiguration(server)

        #expect(configuration.devices.map(\.name) == ["camera"])
        guard let device = configuration.devices.first(where: { $0.name == "camera" }) else { return }
        let session = FTPSession(configuration: device.sessionConfiguration)
        try session.connect()
        defer { session.quit() }

        #expect(device.name == "camera" && session.isConnected)
    }
}
