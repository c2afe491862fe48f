// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncStore

/// The device clock's offset from ours (`LearnedState.clockOffset`, measured by one MDTM of the
/// first LIST listing that allows it: 0, or at least a day ahead, or whole years behind) kept
/// in the state across runs: a run that measures it again and finds it moved by more than
/// `jumpThreshold` notes a `clock_jump` event (a camera whose battery ran out and restarted in
/// 2000, a clock set right again). A run that does not measure it (MLSD, no MDTM, no file
/// listed without a year) keeps the stored value.
enum ClockOffsetCheck {
    /// How far the offset must move to be a jump: one day, in seconds. The measure cannot
    /// see less (an offset under a day ahead reads 0). A device more than a day ahead gives
    /// only a lower bound (the time of the file asked about against our clock), which can
    /// move by more than a day when another file is asked about: its events say so too.
    static let jumpThreshold: TimeInterval = 86_400

    /// The detail of a jump from `stored` to `measured` (seconds), nil when either is unknown
    /// or they differ by `jumpThreshold` or less.
    static func jump(from stored: Double?, to measured: Double?) -> String? {
        guard let stored, let measured, stored.isFinite, measured.isFinite,
            abs(measured - stored) > jumpThreshold
        else { return nil }
        return "the device's clock offset went from \(shown(stored)) to \(shown(measured)) (ahead of ours: +)"
    }

    /// `seconds` in days, signed, one decimal.
    static func shown(_ seconds: Double) -> String {
        String(format: "%+.1f days", seconds / 86_400)
    }

    /// After the listing: notes in `transitions` a jump of the offset `remote` measured from the
    /// one `store` holds for `device`, and stores the new one (neither when `persist` is false:
    /// a dry run).
    static func conclude(
        _ remote: RemoteFileSystem, store: StateStore?, device: String, persist: Bool,
        transitions: DeviceTransitions
    ) {
        guard persist, let store, let measured = remote.learned.clockOffset, measured.isFinite else { return }
        let stored = try? store.clockOffset(device: device)
        if let detail = jump(from: stored ?? nil, to: measured) { transitions.note(.clockJump, detail) }
        try? store.setClockOffset(measured, device: device)
    }
}
