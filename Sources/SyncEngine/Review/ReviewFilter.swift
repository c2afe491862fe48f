// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree
import SyncCore

/// The plan writer of `ftpsync apply`: the device is planned again, now, and only the actions
/// of the reviewed plan (`ReviewedPlan`) whose files are still as the review saw them go on to
/// the spool. A reviewed action planned now with other facts is refused, one no longer planned
/// is refused, and an action the review did not hold is left out: nothing unplanned happens.
/// Pairs to record and records to drop are left for the next ordinary run.
final class ReviewFilter: PlanWriter {
    private let base: PlanWriter
    /// What tells one action of a device's plan from another.
    private struct Key: Hashable {
        var kind: ActionKind
        var path: String
        var to: String?
    }
    /// The reviewed actions not met yet.
    private var pending: [Key: ReviewedPlan.Entry]
    /// The order of the reviewed actions, for the refusals of those never met.
    private let order: [ReviewedPlan.Entry]
    /// The reviewed actions refused so far.
    private(set) var refused: [ActionReport] = []
    /// Actions planned now that the review did not hold (left out), as `kind path`.
    private(set) var unreviewed: [String] = []
    /// The kind of action planned now at each path the review did not hold it for.
    private var plannedNow: [String: ActionKind] = [:]

    init(base: PlanWriter, reviewed: ReviewedPlan) {
        self.base = base
        order = reviewed.actions
        pending = Dictionary(
            reviewed.actions.map { (Key(kind: $0.kind, path: $0.path, to: $0.to), $0) },
            uniquingKeysWith: { first, _ in first })
    }

    /// Passes `action` on when the review holds it with the same facts; else refuses or leaves it out.
    /// - Throws: what `base` throws.
    func append(_ action: Action, to section: PlanSection) throws {
        let key = Key(kind: action.kind, path: action.path.string, to: action.to?.string)
        guard let reviewed = pending.removeValue(forKey: key) else {
            unreviewed.append("\(action.kind.rawValue) \(action.path)")
            plannedNow[action.path.string] = action.kind
            return
        }
        guard let expected = reviewed.expect else {
            refused.append(
                ActionReport(
                    action: action, status: .refused,
                    error: "the plan does not say what it expected of this file (no \"expect\")"))
            return
        }
        if let change = expected.difference(from: ActionExpectation(action: action)) {
            refused.append(
                ActionReport(action: action, status: .refused, error: "changed since the plan: \(change)"))
            return
        }
        try base.append(action, to: section)
    }

    /// Left for the next ordinary run.
    func adopt(_ adoption: Adoption) throws {}

    /// Left for the next ordinary run.
    func forget(_ path: RelativePath) throws {}

    /// The digest of the server identity `remote` shows (`ServerIdentity.stored`), which a dry
    /// run reports and `apply` compares; nil when it cannot tell.
    static func identity(of remote: RemoteFileSystem) -> String? {
        remote.identity().map { XXH3Hasher.digest(of: Array($0.identity.stored.utf8)) }
    }

    /// Why `reviewed` is not carried out over `remote` (another server than the plan's), or nil.
    static func refusal(of reviewed: ReviewedPlan, by remote: RemoteFileSystem, host: String) -> String? {
        guard reviewed.identity != identity(of: remote) else { return nil }
        return "the plan was made against another server at \(host) (its identity differs); nothing was changed"
            + " for this device: make a new plan with --dry-run --json"
    }

    /// Puts what the review decided into `report`: the refused actions (counted as failed, the
    /// device `partial`) and a note of the actions planned now that it did not hold.
    func conclude(into report: inout DeviceReport) {
        refuseUnmet()
        report.actions.append(contentsOf: refused)
        // Not done: counted with the failures, as the exit code (1) says.
        report.stats.failed += refused.count
        if !unreviewed.isEmpty {
            let count = unreviewed.count
            let shown = unreviewed.prefix(5).joined(separator: ", ") + (count > 5 ? ", …" : "")
            report.notes.append(
                "\(count) action\(count == 1 ? "" : "s") planned now that the reviewed plan does not hold, not"
                    + " carried out (a new dry run shows them): \(shown)")
        }
        if !refused.isEmpty {
            report.status = .partial
            report.error =
                "\(refused.count) of the plan's actions refused: their files changed since the plan was made, or"
                + " they are no longer planned; a new dry run shows what to do now"
        }
    }

    /// Refuses every reviewed action the device's plan no longer holds; call once planning ended.
    private func refuseUnmet() {
        for entry in order
        where pending.removeValue(forKey: Key(kind: entry.kind, path: entry.path, to: entry.to)) != nil {
            let why =
                plannedNow[entry.path].map {
                    "no longer planned: a side changed since the plan; a \($0.rawValue) now"
                } ?? "no longer planned: nothing to do for it now (done already, or a side changed since the plan)"
            refused.append(
                ActionReport(
                    kind: entry.kind, path: entry.path, to: entry.to, bytes: entry.bytes, status: .refused, error: why))
        }
    }
}
