// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import SyncEngine

/// How a run ended.
public enum RunResult: Sendable {
    /// The devices ran (each to its own end: ok, partial, failed or refused); their reports in
    /// the configuration's order.
    case finished([DeviceReport])
    /// Another run holds the lock on the local tree: nothing was done, no device was contacted.
    case locked(RunLockHeld)

    /// The reports of a finished run; empty when the lock was held.
    public var reports: [DeviceReport] {
        if case .finished(let reports) = self { return reports }
        return []
    }
}

/// Another run (of this process or another) holds the lock of the local tree.
public struct RunLockHeld: Error, Sendable, Hashable, CustomStringConvertible {
    /// The local tree's root (`Configuration.localRoot`).
    public let localRoot: String
    /// The process id the holder wrote in the lock file, when readable.
    public let pid: Int32?

    /// The lock on `localRoot`, held by process `pid` when known.
    public init(localRoot: String, pid: Int32?) {
        self.localRoot = localRoot
        self.pid = pid
    }

    /// `another ftpsync run (pid N) holds the lock on ROOT; nothing was done`.
    public var description: String {
        let holder = pid.map { " (pid \($0))" } ?? ""
        return "another ftpsync run\(holder) holds the lock on \(localRoot); nothing was done"
    }
}
