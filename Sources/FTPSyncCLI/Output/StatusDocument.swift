import ArgumentParser
import FTPListing
import Foundation
import SyncConfig
import SyncCore
import SyncStore

/// The document `status --json` prints (CONTRACT.md, "status --json").
struct StatusDocument: Encodable, Sendable {
    /// Absolute path of the local tree.
    var local: String
    /// One entry per device of the configuration, in file order.
    var devices: [DeviceStateSummary]

    /// Reads the state of `configuration`'s tree; every device gets zeros and a null `last_sync`
    /// when no state file exists yet.
    /// - Throws: `StoreError` when the state file exists but cannot be read.
    static func read(_ configuration: Configuration) throws(StoreError) -> StatusDocument {
        guard let store = try StateStore.openExisting(localRoot: configuration.localRoot) else {
            return StatusDocument(
                local: configuration.localRoot,
                devices: configuration.devices.map {
                    DeviceStateSummary(
                        name: $0.name, lastSync: nil, files: 0, bytes: 0, partials: 0, identityKnown: false)
                })
        }
        defer { store.close() }
        let known = Dictionary(try store.devices().map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var devices: [DeviceStateSummary] = []
        for device in configuration.devices {
            let stats = try store.stats(device: device.name)
            let state = known[device.name]
            var summary = DeviceStateSummary(
                name: device.name, lastSync: state?.lastSync, files: stats.files, bytes: stats.bytes,
                partials: stats.partials, identityKnown: state?.identity != nil)
            summary.lastAttempt = try store.lastAttempt(device: device.name)
            devices.append(summary)
        }
        return StatusDocument(local: configuration.localRoot, devices: devices)
    }

    /// The table printed without `--json`.
    var text: String {
        let header = [
            "device", "last sync (UTC)", "last attempt (UTC)", "result", "files", "size", "partials", "identity",
        ]
        var rows = [header]
        var errors = ""
        for device in devices {
            let attempt = device.lastAttempt
            rows.append([
                device.name, device.lastSync.map { UTCFields($0).iso8601 } ?? "never",
                attempt.map { UTCFields($0.at).iso8601 } ?? "never",
                attempt?.status ?? "-", String(device.files), formatBytes(device.bytes), String(device.partials),
                device.identityKnown ? "known" : "unknown",
            ])
            if let attempt, let error = attempt.error {
                errors += "\(device.name): last error: \(printable(error))"
                errors += " (\(counted(attempt.filesTransferred, "file")) transferred in that run)\n"
            }
        }
        var widths = Array(repeating: 0, count: header.count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        var out = "local: \(local)\n"
        for row in rows {
            let cells = row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index] + 2, withPad: " ", startingAt: 0)
            }
            out += cells.joined() + "\n"
        }
        return out + errors
    }
}

/// One device in `status --json`.
struct DeviceStateSummary: Encodable, Sendable {
    var name: String
    /// End of the last successful run (UTC), nil if never.
    var lastSync: Date?
    /// Files recorded at the last syncs.
    var files: Int
    /// Sum of the recorded files' sizes, in bytes.
    var bytes: UInt64
    /// Interrupted transfers waiting to resume.
    var partials: Int
    /// True when the server's identity has been recorded.
    var identityKnown: Bool
    /// The device's last run, whatever its outcome; nil when none was recorded.
    var lastAttempt: DeviceAttempt?

    enum CodingKeys: String, CodingKey {
        case name
        case lastSync = "last_sync"
        case lastAttempt = "last_attempt"
        case lastStatus = "last_status"
        case lastError = "last_error"
        case lastFilesTransferred = "last_files_transferred"
        case files, bytes, partials
        case identityKnown = "identity_known"
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        if let lastSync {
            try container.encode(UTCFields(lastSync).iso8601, forKey: .lastSync)
        } else {
            try container.encodeNil(forKey: .lastSync)
        }
        try container.encode(lastAttempt.map { UTCFields($0.at).iso8601 }, forKey: .lastAttempt)
        try container.encode(lastAttempt?.status, forKey: .lastStatus)
        try container.encode(lastAttempt?.error, forKey: .lastError)
        try container.encode(lastAttempt?.filesTransferred, forKey: .lastFilesTransferred)
        try container.encode(files, forKey: .files)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(partials, forKey: .partials)
        try container.encode(identityKnown, forKey: .identityKnown)
    }
}
