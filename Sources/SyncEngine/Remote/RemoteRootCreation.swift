// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPListing
import Foundation
import SyncCore

/// The device's configured remote folder (`remote:`) when it does not exist yet: a push makes
/// it, MKD of each missing folder from `/` down (issue 14 item 6). A pull never does; a
/// missing root fails a pull.
enum RemoteRootCreation {
    /// The absolute folders from `/` down to `root` that the device's listings prove missing,
    /// outermost first (`/new`, `/new/deep`, `/new/deep/root`); empty when the root exists or
    /// when no listing can tell (a parent that cannot be listed, a file in the way: the run
    /// goes on and reports what the root's own listing says).
    ///
    /// Walks from `/`: one LIST per existing level, up to the first name its parent lacks.
    static func missingParts(of root: String, on remote: RemoteFileSystem) -> [String] {
        let names = root.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var parent = "/"
        for (index, name) in names.enumerated() {
            guard let listing = try? remote.list(parent) else { return [] }
            if let entry = listing.entries.first(where: { $0.name == name }) {
                // A file where a folder should be: MKD cannot help, the listing error stands.
                if entry.type == .file { return [] }
                parent = remotePath(root: parent, relative: name)
                continue
            }
            var path = parent
            return names[index...].map { name in
                path = remotePath(root: path, relative: name)
                return path
            }
        }
        return []
    }

    /// What the report shows for making `folder` (an absolute path: the one kind of action
    /// whose `path` starts with `/`, for it lies at or above the device's root).
    static func report(_ folder: String, status: ActionStatus, error: String? = nil) -> ActionReport {
        var report = ActionReport(
            action: Action(kind: .mkdirRemote, path: .root, reason: "the device's remote folder"),
            status: status, error: error)
        report.path = folder
        return report
    }

    /// Puts the planned making of `parts` before the other actions of a dry run's `report`.
    static func reportFirst(_ parts: [String], into report: inout DeviceReport) {
        guard !parts.isEmpty else { return }
        // The folders come first: a log only grows at its end, so it is made anew.
        var actions = ActionLog()
        actions.append(contentsOf: parts.map { Self.report($0, status: .planned) })
        actions.append(contentsOf: report.actions)
        report.actions = actions
    }

    /// Makes `parts` in order (MKD), appending one action to `report` each.
    /// - Returns: false when one is refused (the device fails: nothing can be put there).
    static func make(_ parts: [String], on remote: RemoteFileSystem, into report: inout DeviceReport) -> Bool {
        for folder in parts {
            do {
                try remote.makeDirectory(folder)
                let done = Self.report(folder, status: .done)
                report.actions.append(done)
                report.stats.count(done, transferred: 0)
            } catch {
                report.actions.append(Self.report(folder, status: .failed, error: "\(error)"))
                report.status = .failed
                report.error = "cannot make the device's remote folder \(folder): \(error)"
                return false
            }
        }
        return true
    }
}
