// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// `ftpsync status --stale`, `--device` and `--events` on the built binary: a device fresh
/// after its good run, stale once the window is shorter than the time since, a device never
/// synced stale at once, the offline and back events after its server stopped and started
/// again, and a bad duration a usage error. pyftpdlib; addresses 127.0.44.1–127.0.44.2.
@Suite(.serialized) struct StatusHealthTests {
    /// A configuration of `cam` (the server at `port`) and `spare` (never synced: nothing
    /// listens at 127.0.44.2 port 1), written to `folder`/devices.yaml.
    private func config(in folder: String, port: Int) throws -> String {
        let path = folder + "/devices.yaml"
        let text = """
            local: \(folder)/mirror
            devices:
              - name: cam
                host: 127.0.44.1
                port: \(port)
                user: tester
                password: t3st-pw
                retries: 0
              - name: spare
                host: 127.0.44.2
                port: 1
                retries: 0

            """
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        return path
    }

    private func object(_ stdout: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any]) ?? [:]
    }

    private func device(_ name: String, _ stdout: String) -> [String: Any] {
        (object(stdout)["devices"] as? [[String: Any]])?.first { $0["name"] as? String == name } ?? [:]
    }

    @Test func staleAfterTheWindowOfflineThenBack() throws {
        let work = try makeTemporaryFolder("status-health")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let served = work + "/served"
        try writeFile(served + "/DCIM/a.jpg", Array("photo\n".utf8), modified: 1_700_000_000)
        var server = try FTPServer(.pyftpdlib, root: served, address: "127.0.44.1")
        defer { server.stop() }
        var config = try self.config(in: work, port: server.port)

        let good = try ftpsync(["pull", config, "--device", "cam"])
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        // Fresh right after its good run; the device never synced is stale.
        let fresh = try ftpsync(["status", config, "--stale", "1h", "--device", "cam", "--json"])
        #expect(fresh.status == 0, "\(fresh.stdout)\(fresh.stderr)")
        #expect(device("cam", fresh.stdout)["stale"] as? Bool == false, "\(fresh.stdout)")
        let whole = try ftpsync(["status", config, "--stale", "1h", "--json"])
        #expect(whole.status == 1, "\(whole.stdout)\(whole.stderr)")
        #expect(device("spare", whole.stdout)["stale"] as? Bool == true, "\(whole.stdout)")
        #expect(device("cam", whole.stdout)["stale"] as? Bool == false, "\(whole.stdout)")
        let quiet = try ftpsync(["status", config, "--stale", "1h", "-q"])
        #expect(quiet.status == 1 && quiet.stdout.isEmpty, "\(quiet.stdout)\(quiet.stderr)")

        server.stop()
        let failed = try ftpsync(["pull", config, "--device", "cam"])
        #expect(failed.status == 1, "\(failed.stdout)\(failed.stderr)")
        // Still fresh: its last success is within the hour.
        let stillFresh = try ftpsync(["status", config, "--stale", "1h", "--device", "cam", "--json"])
        #expect(stillFresh.status == 0, "\(stillFresh.stdout)\(stillFresh.stderr)")
        let failing = device("cam", stillFresh.stdout)
        #expect(failing["consecutive_failures"] as? Int == 1, "\(stillFresh.stdout)")
        #expect(failing["failing_since"] is String && failing["last_error"] is String, "\(stillFresh.stdout)")
        sleep(2)
        let stale = try ftpsync(["status", config, "--stale", "1s", "--device", "cam", "--json"])
        #expect(stale.status == 1, "\(stale.stdout)\(stale.stderr)")
        #expect(device("cam", stale.stdout)["stale"] as? Bool == true, "\(stale.stdout)")
        let text = try ftpsync(["status", config, "--stale", "1s"])
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.count == 5 && lines[3].hasPrefix("cam ") && lines[3].contains("failing+stale"), "\(text.stdout)")

        server = try FTPServer(.pyftpdlib, root: served, address: "127.0.44.1")
        config = try self.config(in: work, port: server.port)
        let again = try ftpsync(["pull", config, "--device", "cam"])
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        let events = try ftpsync(["status", config, "--events", "--json", "--device", "cam"])
        #expect(events.status == 0, "\(events.stdout)\(events.stderr)")
        let listed = object(events.stdout)["events"] as? [[String: Any]] ?? []
        #expect(listed.map { $0["kind"] as? String } == ["back", "offline"], "\(events.stdout)")
        #expect(
            listed.allSatisfy { $0["device"] as? String == "cam" && ($0["time"] as? String)?.hasSuffix("Z") == true })
        let eventText = try ftpsync(["status", config, "--events", "--device", "cam"])
        #expect(eventText.stdout.split(separator: "\n").count == 2, "\(eventText.stdout)")
        #expect(eventText.stdout.contains("  cam  back  reached again"), "\(eventText.stdout)")
    }

    @Test func aBadDurationIsAUsageError() throws {
        let work = try makeTemporaryFolder("status-stale-usage")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let config = try self.config(in: work, port: 1)
        for value in ["6x", "-1h", "soon", "", "0", "0s"] {
            let result = try ftpsync(["status", config, "--stale", value])
            #expect(result.status == 2, "\(value): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(value): \(result.stderr)")
            #expect(result.stderr.contains("--stale"), "\(value): \(result.stderr)")
        }
        let unknown = try ftpsync(["status", config, "--device", "nope"])
        #expect(unknown.status == 2, "\(unknown.stderr)")
        // With --json, a status that cannot be made is still one document, as pull's is.
        let document = try ftpsync(["status", config, "--device", "nope", "--json"])
        #expect(document.status == 2, "\(document.stderr)")
        #expect((object(document.stdout)["error"] as? String)?.contains("unknown device 'nope'") == true)
        #expect((object(document.stdout)["devices"] as? [Any])?.isEmpty == true, "\(document.stdout)")
        // A local tree that does not exist is said, not shown as a fleet never run.
        let missing = try ftpsync(["status", config])
        #expect(missing.status == 0 && missing.stderr.contains("does not exist"), "\(missing.stderr)")
        try FileManager.default.createDirectory(atPath: work + "/mirror", withIntermediateDirectories: true)
        #expect(try ftpsync(["status", config]).stderr.isEmpty)
    }
}
