// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree
import SyncConfig
import SyncStore
import Testing

@testable import FTPSyncCLI

/// `ftpsync status`: the staleness decision, devices in trouble first on one line each, the
/// JSON keys, the events, the trash, and a state of 1,000 devices.
struct StatusReportTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let sixHours: TimeInterval = 6 * 3_600

    @Test(
        arguments: [
            (nil, false, true),  // never synced: stale
            (-1.0, false, false),  // a second ago
            (-sixHours + 1, false, false),  // just inside the window
            (-sixHours, false, false),  // exactly at its start: still within
            (-sixHours - 1, false, true),  // just outside
            (-30 * 86_400.0, false, true),  // a month ago
            (3_600.0, false, false),  // in the future (our clock set back): fresh
        ] as [(Double?, Bool, Bool)])
    func theStalenessDecision(lastSyncOffset: Double?, _ unused: Bool, stale: Bool) {
        let lastSync = lastSyncOffset.map { Self.now.addingTimeInterval($0) }
        #expect(Staleness.isStale(lastSync: lastSync, now: Self.now, window: Self.sixHours) == stale)
    }

    @Test func aZeroWindowMakesAnythingBeforeNowStale() {
        #expect(Staleness.isStale(lastSync: Self.now, now: Self.now, window: 0) == false)
        #expect(Staleness.isStale(lastSync: Self.now.addingTimeInterval(-1), now: Self.now, window: 0))
    }

    /// A tree in a fresh temporary folder with `count` devices `cam0`, `cam1`, …
    private static func fleet(_ count: Int) throws -> (folder: String, configuration: Configuration) {
        let folder = NSTemporaryDirectory() + "status-report-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let devices = (0..<count).map { DeviceConfig(name: "cam\($0)", host: "h", localPath: folder + "/cam\($0)") }
        return (folder, Configuration(localRoot: folder, devices: devices, configPath: folder + "/devices.yaml"))
    }

    private static func attempt(_ at: Date, ok: Bool, error: String? = nil) -> DeviceAttempt {
        DeviceAttempt(
            at: at, status: ok ? "ok" : "failed", error: ok ? nil : error ?? "connection refused",
            filesTransferred: ok ? 2 : 0)
    }

    private static func request(
        _ configuration: Configuration, stale: TimeInterval? = nil, events: Int? = nil, devices: [String] = []
    ) throws -> StatusDocument.Request {
        StatusDocument.Request(
            devices: try configuration.selectDevices(named: devices), staleWindow: stale, events: events, now: now)
    }

    /// 1,000 devices: every tenth failing since two runs, every 100th never run, the rest
    /// fine an hour ago. The text has one line per device, failing ones first, then those never run, then the fine
    /// ones, each group in file order.
    @Test func aThousandDevicesOneLineEachTroubleFirst() throws {
        let (folder, configuration) = try Self.fleet(1_000)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try StateStore.open(localRoot: folder)
        let hourAgo = Self.now.addingTimeInterval(-3_600)
        try store.transaction {
            for index in 0..<1_000 where index % 100 != 99 {
                let name = "cam\(index)"
                try store.markAttempt(device: name, Self.attempt(hourAgo.addingTimeInterval(-7_200), ok: true))
                try store.markSynced(device: name, at: hourAgo.addingTimeInterval(-7_200))
                if index % 10 == 3 {
                    let long = "cannot connect: " + String(repeating: "very long reason ", count: 40)
                    try store.markAttempt(device: name, Self.attempt(hourAgo.addingTimeInterval(-3_600), ok: false))
                    try store.markAttempt(device: name, Self.attempt(hourAgo, ok: false, error: long))
                } else {
                    try store.markAttempt(device: name, Self.attempt(hourAgo, ok: true))
                    try store.markSynced(device: name, at: hourAgo)
                }
            }
        }
        store.close()
        let document = try StatusDocument.read(configuration, Self.request(configuration))
        let lines = StatusTable.text(document, width: 200).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast()
        // local, trash, header, then the devices.
        #expect(lines.count == 3 + 1_000)
        let names = lines.dropFirst(3).map { String($0.split(separator: " ").first ?? "") }
        let failing = (0..<1_000).filter { $0 % 10 == 3 }.map { "cam\($0)" }
        let never = (0..<1_000).filter { $0 % 100 == 99 }.map { "cam\($0)" }
        // Failing first, then never run, each in file order, then the fine ones in file order.
        #expect(Array(names.prefix(failing.count)) == failing)
        #expect(Array(names.dropFirst(failing.count).prefix(never.count)) == never)
        let fine = (0..<1_000).filter { $0 % 10 != 3 && $0 % 100 != 99 }.map { "cam\($0)" }
        #expect(Array(names.dropFirst(failing.count + never.count)) == fine)
        #expect(names.count == Set(names).count)
        let cam3 = try #require(lines.first { $0.hasPrefix("cam3 ") })
        #expect(cam3.contains("failing") && cam3.contains(" 2 since 2027-01-15T06:00:00Z "), "\(cam3)")
        #expect(cam3.contains("failed: cannot connect: very long") && cam3.hasSuffix("…"), "\(cam3)")
        #expect(cam3.count <= 200, "\(cam3.count): \(cam3)")
        let cam99 = try #require(lines.first { $0.hasPrefix("cam99 ") })
        #expect(cam99.contains("never"), "\(cam99)")
        // The JSON keeps the error whole, the devices in file order.
        let json = try Self.object(jsonText(document))
        let devices = try #require(json["devices"] as? [[String: Any]])
        #expect(devices.map { $0["name"] as? String } == (0..<1_000).map { "cam\($0)" })
        #expect((devices[3]["last_error"] as? String)?.hasSuffix("very long reason ") == true)
    }

    /// Failing, then stale (or never successful), then never run, then fine.
    @Test func theOrderOfTrouble() throws {
        let (folder, configuration) = try Self.fleet(4)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try StateStore.open(localRoot: folder)
        let longAgo = Self.now.addingTimeInterval(-86_400)
        for (name, at) in [("cam0", Self.now), ("cam1", longAgo), ("cam2", Self.now)] {
            try store.markAttempt(device: name, Self.attempt(at, ok: true))
            try store.markSynced(device: name, at: at)
        }
        try store.markAttempt(device: "cam2", Self.attempt(Self.now, ok: false))
        store.close()
        let document = try StatusDocument.read(configuration, Self.request(configuration, stale: Self.sixHours))
        #expect(StatusTable.ordered(document.devices).map(\.name) == ["cam2", "cam1", "cam3", "cam0"])
        #expect(StatusTable.ordered(document.devices).map(\.standing) == ["failing", "stale", "never", "ok"])
    }

    /// A name of wide characters (two terminal columns each) keeps the columns aligned.
    @Test func wideNamesKeepTheColumnsAligned() throws {
        let folder = NSTemporaryDirectory() + "status-report-\(UUID().uuidString)"
        let devices = ["カメラ", "cam"].map { DeviceConfig(name: $0, host: "h", localPath: folder + "/" + $0) }
        let configuration = Configuration(localRoot: folder, devices: devices, configPath: folder + "/d.yaml")
        let document = try StatusDocument.read(configuration, Self.request(configuration))
        let lines = StatusTable.text(document, width: 200).split(separator: "\n").dropFirst(2)
        let starts = lines.map { line in
            ProgressFormat.columns(String(line.prefix { $0 != " " }))
                + line.drop { $0 != " " }.prefix { $0 == " " }.count
        }
        #expect(starts.count == 3 && Set(starts).count == 1, "\(lines)")
    }

    @Test func theJSONKeysOfADeviceAndStaleOnlyWithTheOption() throws {
        let (folder, configuration) = try Self.fleet(3)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try StateStore.open(localRoot: folder)
        let fresh = Self.now.addingTimeInterval(-60)
        try store.markAttempt(device: "cam0", Self.attempt(fresh, ok: true))
        try store.markSynced(device: "cam0", at: fresh)
        try store.markAttempt(device: "cam1", Self.attempt(Self.now.addingTimeInterval(-86_400), ok: true))
        try store.markSynced(device: "cam1", at: Self.now.addingTimeInterval(-86_400))
        try store.markAttempt(device: "cam1", Self.attempt(fresh, ok: false))
        store.close()

        let plain = try Self.object(jsonText(try StatusDocument.read(configuration, Self.request(configuration))))
        let device = try #require((plain["devices"] as? [[String: Any]])?.first)
        #expect(
            Set(device.keys) == [
                "name", "last_sync", "last_attempt", "last_status", "last_error", "last_files_transferred",
                "consecutive_failures", "failing_since", "files", "bytes", "partials", "identity_known",
                "trash_files", "trash_bytes",
            ])
        #expect(device["last_error"] is NSNull && device["failing_since"] is NSNull)
        #expect(plain["events"] == nil)
        let trash = try #require(plain["trash"] as? [String: Any])
        #expect(trash["files"] as? Int == 0 && trash["complete"] as? Bool == true)

        let checked = try StatusDocument.read(configuration, Self.request(configuration, stale: Self.sixHours))
        #expect(checked.devices.map(\.stale) == [false, true, true])
        #expect(checked.anyStale)
        let failing = try #require(
            (try Self.object(jsonText(checked))["devices"] as? [[String: Any]])?.dropFirst().first)
        #expect(failing["stale"] as? Bool == true)
        #expect(failing["consecutive_failures"] as? Int == 1)
        #expect(failing["failing_since"] as? String == "2027-01-15T07:59:00Z")
        #expect(failing["last_error"] as? String == "connection refused")

        let one = try StatusDocument.read(
            configuration, Self.request(configuration, stale: Self.sixHours, devices: ["cam0"]))
        #expect(one.devices.map(\.name) == ["cam0"] && !one.anyStale)
    }

    @Test func eventsNewestFirstBoundedAndOfTheDevicesAsked() throws {
        let (folder, configuration) = try Self.fleet(2)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try StateStore.open(localRoot: folder)
        for index in 0..<60 {
            try store.recordEvent(
                DeviceEvent(
                    device: "cam\(index % 2)", at: Self.now.addingTimeInterval(Double(index)),
                    kind: index % 2 == 0 ? .offline : .back, detail: "event \(index)"))
        }
        store.close()
        let all = try StatusDocument.read(configuration, Self.request(configuration, events: 50))
        #expect(all.events?.count == 50)
        #expect(all.events?.first?.detail == "event 59")
        let json = try Self.object(jsonText(all))
        let first = try #require((json["events"] as? [[String: Any]])?.first)
        #expect(Set(first.keys) == ["device", "time", "kind", "detail"])
        #expect(first["time"] as? String == "2027-01-15T08:00:59Z" && first["kind"] as? String == "back")
        let one = try StatusDocument.read(configuration, Self.request(configuration, events: 50, devices: ["cam0"]))
        #expect(one.events?.count == 30 && one.events?.allSatisfy { $0.device == "cam0" } == true)
        #expect(one.events?.first?.detail == "event 58")
        let text = StatusTable.eventsText(one.events ?? [])
        #expect(text.split(separator: "\n").count == 30)
        #expect(text.hasPrefix("2027-01-15T08:00:58Z  cam0  offline  event 58\n"), "\(text)")
    }

    @Test func theTrashIsMeasuredPerDeviceWithoutFollowingSymlinks() throws {
        let (folder, configuration) = try Self.fleet(2)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let files = FileManager.default
        let run = folder + "/.ftpsync/trash/20270115T080000Z"
        try files.createDirectory(atPath: run + "/cam0/DCIM", withIntermediateDirectories: true)
        try files.createDirectory(atPath: run + "/cam1", withIntermediateDirectories: true)
        try Data(count: 1_000).write(to: URL(fileURLWithPath: run + "/cam0/DCIM/a.jpg"))
        try Data(count: 24).write(to: URL(fileURLWithPath: run + "/cam1/b.jpg"))
        // A symlink to a big folder outside counts as the link it is.
        try files.createDirectory(atPath: folder + "/outside", withIntermediateDirectories: true)
        try Data(count: 50_000).write(to: URL(fileURLWithPath: folder + "/outside/big"))
        try files.createSymbolicLink(atPath: run + "/cam1/link", withDestinationPath: folder + "/outside")
        let document = try StatusDocument.read(configuration, Self.request(configuration))
        let trash = try #require(document.trash)
        #expect(trash.runs == 1 && trash.complete)
        #expect(trash.total.files == 3)
        #expect(trash.total.bytes < 2_000, "\(trash)")
        #expect(document.devices.map(\.trash.bytes) == [1_000, trash.total.bytes - 1_000])
        #expect(StatusTable.text(document, width: 160).contains("trash: 3 files, "))

        let bounded = try TrashUsage.measure(localRoot: folder, limit: 3)
        #expect(!bounded.complete && bounded.total.files <= 3)
    }

    private static func object(_ json: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }
}
