// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation
import SyncRunner

/// The JSON document of `verify --json`: `{"command": "verify", "devices": […]}`.
struct VerifyDocument: Encodable {
    var command = "verify"
    var devices: [VerifyDeviceReport]
}

/// One device's result of `verify`, as printed (text) and in the JSON document.
struct VerifyDeviceReport: Encodable {
    /// The counts of one device's files (`stats` in the JSON).
    struct Stats: Encodable, Equatable {
        /// Files whose digests match.
        var verified = 0
        /// Files whose digests differ.
        var differs = 0
        /// Files gone from either side (`missing_local` and `missing_remote`).
        var missing = 0
        /// Files that could not be compared.
        var unverifiable = 0
    }

    /// One file of the report.
    struct File: Encodable, Equatable {
        /// Relative to the device's roots.
        var path: String
        /// `ok`, `differs`, `missing_local`, `missing_remote`, `unverifiable`.
        var status: String
        /// `local`, `device`, `both`, `unknown`, or null.
        var changed: String?
        /// One line, or null for a file that matches.
        var detail: String?

        enum CodingKeys: String, CodingKey { case path, status, changed, detail }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try container.encode(status, forKey: .status)
            try container.encode(changed, forKey: .changed)
            try container.encode(detail, forKey: .detail)
        }
    }

    var name: String
    /// `ok` (every file compared matches), `differs` (a file differs or is missing), `failed`.
    var status: String
    /// Why the device failed (or stopped early), or null.
    var error: String?
    /// The algorithm compared (`SHA-256`, …; `XXH3` with `--local`), or null.
    var algorithm: String?
    /// The files that do not match (every file with `--verbose`), in path order.
    var files: [File]
    var stats: Stats

    enum CodingKeys: String, CodingKey { case name, status, error, algorithm, files, stats }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(status, forKey: .status)
        try container.encode(error, forKey: .error)
        try container.encode(algorithm, forKey: .algorithm)
        try container.encode(files, forKey: .files)
        try container.encode(stats, forKey: .stats)
    }

    /// The hint added to the failure of a device whose server has no hash command.
    static let localHint = "`ftpsync verify --local` checks the local files against the state"

    /// The report of `verification` for device `name`; `verbose` keeps the files that match.
    init(name: String, _ verification: DeviceVerification, verbose: Bool) {
        self.name = name
        algorithm = verification.algorithm
        var stats = Stats()
        for file in verification.files {
            switch file.status {
            case .ok: stats.verified += 1
            case .differs: stats.differs += 1
            case .missingLocal, .missingRemote: stats.missing += 1
            case .unverifiable: stats.unverifiable += 1
            }
        }
        self.stats = stats
        files = verification.files.filter { verbose || $0.status != .ok }.map {
            File(path: $0.path.string, status: $0.status.rawValue, changed: $0.changed?.rawValue, detail: $0.detail)
        }
        switch verification.failure {
        case .noHashCommand?: error = "\(VerifyFailure.noHashCommand); " + Self.localHint
        case let failure?: error = failure.description
        case nil: error = nil
        }
        status = error != nil ? "failed" : stats.differs + stats.missing > 0 ? "differs" : "ok"
    }

    /// The text report: a summary line, then one line per file listed (`files`).
    var text: String {
        let counts =
            "\(stats.verified) verified, \(stats.differs) differ\(stats.differs == 1 ? "s" : ""), "
            + "\(stats.missing) missing, \(stats.unverifiable) not verifiable"
        var lines: [String]
        if let error {
            let checked = stats.verified + stats.differs + stats.missing + stats.unverifiable
            lines = ["\(name): FAILED — \(error)" + (checked > 0 ? " (before that: \(counts))" : "")]
        } else {
            lines = ["\(name): \(counts)" + (algorithm.map { " (\($0))" } ?? "")]
        }
        let width = files.map(\.status.count).max() ?? 0
        for file in files {
            let label = file.status.padding(toLength: width, withPad: " ", startingAt: 0)
            // One line per file whatever its name holds (a line feed would fake a report line).
            lines.append("  \(label)  " + SafeText.escaped(file.path + (file.detail.map { ": " + $0 } ?? "")))
        }
        return lines.joined(separator: "\n")
    }
}
