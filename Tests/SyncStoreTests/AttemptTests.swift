// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncStore

/// Schema 2: the last attempt of each device beside its last success (`ftpsync status`).
struct AttemptTests {
    /// A state file as version 1 wrote it, with one device synced at `lastSync`.
    private func versionOneState(in folder: String, lastSync: Double) throws -> String {
        try FileManager.default.createDirectory(atPath: folder + "/.ftpsync", withIntermediateDirectories: true)
        let file = folder + "/.ftpsync/state.sqlite"
        let connection = try SQLiteConnection(path: file)
        try connection.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        for sql in StateStore.migrations[0] { try connection.execute(sql) }
        try connection.execute("INSERT INTO schema_version (version) VALUES (1)")
        try connection.execute("INSERT INTO devices (name, last_sync) VALUES ('cam', \(lastSync))")
        return file
    }

    @Test func aVersionOneStateIsMigratedAndKeepsItsLastSync() throws {
        let folder = try TempFolder()
        _ = try versionOneState(in: folder.path, lastSync: 1_700_000_000)
        let store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        #expect(try store.storedSchemaVersion() == StateStore.schemaVersion)
        #expect(try store.lastSync(device: "cam") == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(try store.lastAttempt(device: "cam") == nil)
    }

    @Test func aFailedAttemptIsKeptUntilAGoodOneClearsTheError() throws {
        let folder = try TempFolder()
        let store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        #expect(try store.lastAttempt(device: "cam") == nil)
        let failed = DeviceAttempt(
            at: Date(timeIntervalSince1970: 1_800_000_000.5), status: "failed", error: "connection refused",
            filesTransferred: 0)
        try store.markAttempt(device: "cam", failed)
        #expect(try store.lastAttempt(device: "cam") == failed)
        #expect(try store.lastSync(device: "cam") == nil)
        let interrupted = DeviceAttempt(
            at: Date(timeIntervalSince1970: 1_800_000_100), status: "partial",
            error: "interrupted: 3 of 9 actions not done",
            filesTransferred: 6)
        try store.markAttempt(device: "cam", interrupted)
        #expect(try store.lastAttempt(device: "cam") == interrupted)
        try store.markSynced(device: "cam", at: Date(timeIntervalSince1970: 1_800_000_200))
        let good = DeviceAttempt(
            at: Date(timeIntervalSince1970: 1_800_000_200), status: "ok", error: nil, filesTransferred: 3)
        try store.markAttempt(device: "cam", good)
        #expect(try store.lastAttempt(device: "cam") == good)
        #expect(try store.lastSync(device: "cam") == Date(timeIntervalSince1970: 1_800_000_200))
        // Forgetting the device forgets its attempts too.
        try store.forgetDevice("cam")
        #expect(try store.lastAttempt(device: "cam") == nil)
    }
}
