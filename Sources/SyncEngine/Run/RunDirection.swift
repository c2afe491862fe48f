// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// What sets a pull apart from a push in a `DeviceRun`: what is listed and scanned, which
/// planner plans, which executor carries the plan out, and what comes before and after.
protocol RunDirection {
    /// What planning left for carrying out: the plan and the direction's own state of the run.
    associatedtype Planned
    /// The executor of one connection.
    associatedtype Executor: ActionExecutor

    /// Lists the device and scans the local folder (at once), reads the state and plans: the
    /// plan's actions go to `writer` (each with the record and the local identity of its path
    /// its executor needs), the rest of the plan comes back; the listing's notes and skipped
    /// entries and the folders not read in full go to `report`.
    /// - Throws: what makes the device fail: the remote root cannot be listed, the local folder
    ///   or the state cannot be read, `writer` cannot keep an action.
    func plan(remote: ResilientRemote, into writer: PlanWriter, report: inout DeviceReport) throws -> Planned
    /// The planner's result in `planned`.
    func result(of planned: Planned) -> PlanResult
    /// Adds to `report` what the direction tells of a plan that is not carried out (refused,
    /// or a dry run).
    func stopped(_ planned: Planned, into report: inout DeviceReport)
    /// Gets the device and the local folder ready for the plan's actions (in `spool`); false
    /// when the run ends here (`report` says why).
    func prepare(_ planned: Planned, spool: PlanSpool, remote: ResilientRemote, report: inout DeviceReport) -> Bool
    /// The executor over `remote`: the first connection's or a further one's.
    func executor(_ planned: Planned, over remote: RemoteFileSystem) -> Executor
    /// What is left once the actions were carried out (notes of the record batch, sweeps).
    func conclude(_ planned: Planned, remote: ResilientRemote, report: inout DeviceReport)
}
