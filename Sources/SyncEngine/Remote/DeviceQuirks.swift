// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// What a push learnt of the device's quirks, shared by its connections. How RNTO treats an
/// existing name (issue 14 item 8) is kept for the run only: the next run learns it again
/// with one refused (or unconfirmed) RNTO. Resumed uploads that came out wrong (item 9) are
/// also kept in the state (`StateStore.setResumeQuirk`), so later runs send whole files.
final class DeviceQuirks: @unchecked Sendable {
    private let lock = NSLock()
    private var replaces = true
    private var resumeWrong: Bool

    /// - Parameter resumeWrong: true when the state says resumed uploads come out wrong here.
    init(resumeWrong: Bool = false) { self.resumeWrong = resumeWrong }

    /// True once a resumed upload (APPE, REST + STOR) came out wrong on this device: uploads
    /// then always start from byte 0.
    var resumeIsWrong: Bool { lock.withLock { resumeWrong } }

    /// Remembers that resumed uploads come out wrong on this device.
    func learnResumeIsWrong() { lock.withLock { resumeWrong = true } }

    /// False once RNTO was seen not to replace an existing file (refused, or answered 250 and
    /// left the temporary): later uploads then DELE the old file before their RNTO.
    var renameReplaces: Bool { lock.withLock { replaces } }

    /// Remembers that RNTO does not replace an existing file on this device.
    func learnRenameDoesNotReplace() { lock.withLock { replaces = false } }
}
