// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPListing
import Foundation
import LocalTree
import SyncConfig
import SyncCore
import SyncStore

/// The document `status --json` prints (CONTRACT.md, "status --json"): the devices in file
/// order, the trash, and with `--events` the recent transitions.
struct StatusDocument: Encodable, Sendable {
    /// Absolute path of the local tree.
    var local: String
    /// One entry per device listed (every device of the configuration, or those of `--device`),
    /// in file order.
    var devices: [DeviceStateSummary]
    /// What pull's trash holds; nil when it could not be measured (`trashError` says why).
    var trash: TrashUsage?
    /// Why the trash could not be measured, one line; nil when it was.
    var trashError: String?
    /// The recent transitions, newest first; nil without `--events`.
    var events: [DeviceEvent]?
    /// The shard whose run last wrote the tree (`--shard`); nil when none did. Not in the JSON:
    /// `status` says it in a note (`ShardNote.status`).
    var treeShard: Shard?

    /// What `status` was asked for.
    struct Request: Sendable {
        /// The devices to show, in file order.
        var devices: [DeviceConfig]
        /// `--stale`: the window in seconds; nil without it.
        var staleWindow: TimeInterval?
        /// `--events`: how many of the recent events, at most; nil without it.
        var events: Int?
        /// The time `--stale` measures from (UTC).
        var now: Date
    }

    /// Events `status --events` lists, at most.
    static let eventLimit = 50

    /// Reads the state of `configuration`'s tree for `request`; every device gets zeros and a
    /// null `last_sync` when no state file exists yet.
    /// - Throws: `StoreError` when the state file exists but cannot be read.
    static func read(_ configuration: Configuration, _ request: Request) throws(StoreError) -> StatusDocument {
        var document = StatusDocument(local: configuration.localRoot, devices: [])
        do {
            document.trash = try TrashUsage.measure(localRoot: configuration.localRoot)
        } catch {
            document.trashError = "\(error)"
        }
        let trashShares = document.trash?.devices ?? [:]
        guard let store = try StateStore.openExisting(localRoot: configuration.localRoot) else {
            document.devices = request.devices.map {
                DeviceStateSummary(name: $0.name, trash: trashShares[$0.name] ?? TrashUsage.Share())
            }
            document.settle(request)
            if request.events != nil { document.events = [] }
            return document
        }
        defer { store.close() }
        document.treeShard = try store.lastShard()
        let known = Dictionary(try store.devices().map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for device in request.devices {
            let stats = try store.stats(device: device.name)
            let state = known[device.name]
            var summary = DeviceStateSummary(name: device.name, trash: trashShares[device.name] ?? TrashUsage.Share())
            summary.lastSync = state?.lastSync
            summary.files = stats.files
            summary.bytes = stats.bytes
            summary.partials = stats.partials
            summary.identityKnown = state?.identity != nil
            summary.health = try store.health(device: device.name)
            document.devices.append(summary)
        }
        document.settle(request)
        if let limit = request.events {
            document.events = try recentEvents(store, of: request.devices.map(\.name), all: configuration, limit: limit)
        }
        return document
    }

    /// The newest `limit` events of `names` (of every device when they are all of `configuration`).
    private static func recentEvents(
        _ store: StateStore, of names: [String], all configuration: Configuration, limit: Int
    ) throws(StoreError) -> [DeviceEvent] {
        if names.count == configuration.devices.count { return try store.recentEvents(limit: limit) }
        var events: [DeviceEvent] = []
        for name in names { events += try store.recentEvents(device: name, limit: limit) }
        // Newest first; the same instant keeps the order of the devices asked for.
        return Array(
            events.enumerated().sorted { ($0.element.at, -$0.offset) > ($1.element.at, -$1.offset) }
                .prefix(limit).map(\.element))
    }

    /// Marks each device stale or not when `request` has a window.
    private mutating func settle(_ request: Request) {
        guard let window = request.staleWindow else { return }
        for index in devices.indices {
            devices[index].stale = Staleness.isStale(
                lastSync: devices[index].lastSync, now: request.now, window: window)
        }
    }

    /// True when a device listed is stale (only with `--stale`).
    var anyStale: Bool { devices.contains { $0.stale == true } }

    enum CodingKeys: String, CodingKey {
        case local, devices, trash, events
        case trashError = "trash_error"
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(local, forKey: .local)
        try container.encode(devices, forKey: .devices)
        try container.encode(trash.map(TrashSummary.init), forKey: .trash)
        if let trashError { try container.encode(trashError, forKey: .trashError) }
        if let events { try container.encode(events.map(EventSummary.init), forKey: .events) }
    }
}

/// The trash in `status --json`: `files`, `bytes`, `runs` (its run folders), `complete`.
struct TrashSummary: Encodable, Sendable {
    var files: Int
    var bytes: UInt64
    var runs: Int
    var complete: Bool

    init(_ usage: TrashUsage) {
        files = usage.total.files
        bytes = usage.total.bytes
        runs = usage.runs
        complete = usage.complete
    }
}

/// One event in `status --events --json`: `device`, `time` (ISO 8601 UTC), `kind`, `detail`.
struct EventSummary: Encodable, Sendable {
    var device: String
    var time: String
    var kind: String
    var detail: String?

    init(_ event: DeviceEvent) {
        device = event.device
        time = UTCFields(event.at).iso8601
        kind = event.kind.rawValue
        detail = event.detail
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(device, forKey: .device)
        try container.encode(time, forKey: .time)
        try container.encode(kind, forKey: .kind)
        try container.encode(detail, forKey: .detail)
    }

    enum CodingKeys: String, CodingKey { case device, time, kind, detail }
}
