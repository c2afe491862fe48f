// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import SyncEngine

/// A dry run's JSON document read back by `ftpsync apply`: the direction, how the plan was made
/// (`PlanOrigin`), when (conflict copies are named after it), and each device's reviewed actions
/// with their `expect` and the server identity they were planned against.
struct PlanDocument {
    var direction: SyncDirection
    var origin: PlanOrigin
    /// The dry run's start (UTC, whole seconds).
    var started: Date
    /// The devices with actions to carry out, by name.
    var devices: [String: ReviewedPlan]
    /// The names of those devices, in the document's order.
    var order: [String]

    /// The largest plan document read, in bytes.
    static let sizeLimit = 1 << 30

    /// Why a file is not a plan `apply` can carry out; one line.
    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    private struct Wire: Decodable {
        var command: String
        var dryRun: Bool
        var error: String?
        var started: String
        var plan: PlanOrigin?
        var devices: [Device]

        struct Device: Decodable {
            var name: String
            var status: String
            var identity: String?
            var actions: [Action]
        }

        struct Action: Decodable {
            var kind: ActionKind
            var path: String
            var to: String?
            var bytes: UInt64?
            var status: String
            var expect: ActionExpectation?
        }

        enum CodingKeys: String, CodingKey {
            case command
            case dryRun = "dry_run"
            case error, started, plan, devices
        }
    }

    /// Reads the plan at `path`.
    /// - Throws: `Invalid` naming what is wrong: unreadable, too large, not JSON, not a dry run
    ///   of pull, push or sync with `--json`, or made before plans carried their origin.
    static func read(_ path: String) throws -> PlanDocument {
        let url = URL(fileURLWithPath: path)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        guard let size else { throw Invalid(description: "cannot read the plan \(path)") }
        guard size <= sizeLimit else { throw Invalid(description: "the plan \(path) is larger than 1 GiB") }
        guard let data = try? Data(contentsOf: url) else { throw Invalid(description: "cannot read the plan \(path)") }
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: data)
        } catch {
            throw Invalid(
                description:
                    "\(path) is not a plan: expected the output of `ftpsync push --dry-run --json` (or pull, sync)")
        }
        guard let direction = SyncDirection(rawValue: wire.command) else {
            throw Invalid(description: "\(path) is the output of `\(wire.command)`, not of pull, push or sync")
        }
        guard wire.dryRun else { throw Invalid(description: "\(path) is the report of a run, not of a --dry-run") }
        if let error = wire.error { throw Invalid(description: "the dry run of \(path) did not run: \(error)") }
        guard let origin = wire.plan else {
            throw Invalid(
                description: "\(path) does not say how it was made (no \"plan\"): make it again with --dry-run --json")
        }
        guard let started = ISO8601DateFormatter().date(from: wire.started) else {
            throw Invalid(description: "\(path) has no valid \"started\" time")
        }
        var devices: [String: ReviewedPlan] = [:]
        var order: [String] = []
        for device in wire.devices where !device.actions.isEmpty {
            // The remote root's folders (absolute paths) are made again whenever they are missing.
            let entries = device.actions.filter { $0.status == "planned" && !$0.path.hasPrefix("/") }.map {
                ReviewedPlan.Entry(kind: $0.kind, path: $0.path, to: $0.to, bytes: $0.bytes ?? 0, expect: $0.expect)
            }
            guard !entries.isEmpty, devices[device.name] == nil else { continue }
            devices[device.name] = ReviewedPlan(actions: entries, identity: device.identity)
            order.append(device.name)
        }
        return PlanDocument(direction: direction, origin: origin, started: started, devices: devices, order: order)
    }
}
