// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// Carries out the actions of a sync plan over one remote session: what lands here (download,
/// local folder, rename, trash) with the pull's executor, what lands on the device (upload,
/// MKD, RNFR/RNTO, DELE/RMD) with the push's, so that a sync records, resumes and checks each
/// transfer exactly as pull and push do.
///
/// A conflict goes by its resolution: `keep-both` renames the device's version aside and
/// `local-wins` lets the upload that follows overwrite (the push's conflict), `remote-wins`
/// moves the local version to the trash for the download that follows (the pull's).
final class TwoWayExecutor: ActionExecutor {
    let pull: PullExecutor
    let push: PushExecutor
    /// The bytes both executors' transfers moved (one tally, shared by them).
    let moved: ByteTally
    /// The executor of the last `carryOut`.
    private var last: ActionExecutor?

    var job: DeviceJob { push.job }
    var events: SyncEventHandler? { push.events }

    /// - Parameter moved: the tally `pull` and `push` were made with.
    init(pull: PullExecutor, push: PushExecutor, moved: ByteTally) {
        self.pull = pull
        self.push = push
        self.moved = moved
    }

    /// The executor that carries out `action`.
    private func executor(for action: Action) -> ActionExecutor {
        switch action.kind {
        case .download, .mkdirLocal, .renameLocal, .deleteLocal: return pull
        case .upload, .mkdirRemote, .renameRemote, .deleteRemote: return push
        case .conflict: return action.resolution == .remoteWins ? pull : push
        }
    }

    /// - Throws: what the executor of the action throws; it fails this action only.
    func carryOut(_ action: Action, id: Int) throws -> UInt64 {
        let chosen = executor(for: action)
        last = chosen
        return try chosen.carryOut(action, id: id)
    }

    var startedFrom: UInt64? { last?.startedFrom }

    /// Records a pair found in sync, hashing the local file when the scan did not.
    func adopt(_ adoption: Adoption) { push.adopt(adoption) }

    func flush() {
        pull.flush()
        push.flush()
    }

    /// Re-lists the device's folders that received files (the push's records).
    func finish() {
        pull.finish()
        push.finish()
    }

    func expect(next: Action?, mayStart: (@Sendable () -> Bool)?) {
        pull.expect(next: next, mayStart: mayStart)
    }

    func takeNotes() -> [String] { pull.takeNotes() + push.takeNotes() }
}
