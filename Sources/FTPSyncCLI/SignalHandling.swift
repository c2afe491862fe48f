// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Dispatch
import Foundation
import SyncEngine

/// SIGINT and SIGTERM during `pull` and `push`: stop cleanly instead of dying mid-write.
///
/// The first signal prints one line on stderr and cancels the run's token (`cancelOnSignal`):
/// no new action starts, a transfer in progress stops at its next chunk
/// (a download keeps its bytes under `.ftpsync/partial/` with its state recorded, an upload its
/// temporary file on the server), the report is printed and the process exits with 128 + the
/// signal (130 for SIGINT, 143 for SIGTERM). If the run has not ended `grace` seconds later
/// (a socket wait that only its timeout ends), or on a second signal, the process exits at once
/// with the same code: every state change is a transaction and partial files live under
/// `.ftpsync/`, so this is as safe as the end of a normal run, and the next run resumes.
/// Once the run's outcome is reported (`settle`), a signal no longer changes it: it stops the
/// hook that runs (`HookProcess.runningGroup`) and the process exits with the reported code.
enum SignalHandling {
    /// Seconds between the first signal and the forced exit.
    static let grace: Double = 5

    private static let state = SignalState()

    /// Installs the handlers (once per process); call before the devices start.
    static func install(console: Console) {
        state.install(console: console, grace: grace)
    }

    /// Cancels `token` on the first SIGINT or SIGTERM (at once when one came already).
    static func cancelOnSignal(_ token: CancellationToken) {
        state.watch(token)
    }

    /// The exit code the run reported once `settle` was called; before, the code a received
    /// signal calls for (128 + its number), or nil when none came.
    static var exitCode: Int32? {
        state.settled ?? state.received.map { 128 + $0 }
    }

    /// Records `code`, the exit code of the run's report (its document's), as the process's:
    /// what comes after the report (the metrics file, the hooks) never changes it.
    static func settle(_ code: Int32) {
        state.settle(code)
    }
}

/// The dispatch sources and the signal received, shared with the handler queue.
private final class SignalState: @unchecked Sendable {
    private let lock = NSLock()
    private var sources: [DispatchSourceSignal] = []
    private var signal: Int32?
    private var tokens: [CancellationToken] = []
    private var settledCode: Int32?

    var settled: Int32? {
        lock.lock()
        defer { lock.unlock() }
        return settledCode
    }

    func settle(_ code: Int32) {
        lock.lock()
        defer { lock.unlock() }
        settledCode = code
    }

    var received: Int32? {
        lock.lock()
        defer { lock.unlock() }
        return signal
    }

    func watch(_ token: CancellationToken) {
        lock.lock()
        tokens.append(token)
        let received = signal != nil
        lock.unlock()
        if received { token.cancel() }
    }

    func install(console: Console, grace: Double) {
        lock.lock()
        defer { lock.unlock() }
        guard sources.isEmpty else { return }
        let queue = DispatchQueue(label: "ftpsync.signals")
        for number in [SIGINT, SIGTERM] {
            // The default action (die at once) is replaced by the dispatch source's handler.
            Glibc.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [self] in handle(number, console: console, grace: grace) }
            source.resume()
            sources.append(source)
        }
    }

    private func handle(_ number: Int32, console: Console, grace: Double) {
        lock.lock()
        let first = signal == nil
        if first { signal = number }
        let code = 128 + (signal ?? number)
        let watched = tokens
        let settled = settledCode
        lock.unlock()
        let name = number == SIGINT ? "SIGINT" : "SIGTERM"
        if let settled {
            // The run ended and was reported: stop what follows it, keep its exit code.
            console.error("ftpsync: \(name) received after the run ended (exit \(settled)): stopping")
            if let group = HookProcess.runningGroup { killpg(group, SIGTERM) }
            _exit(settled)
        }
        guard first else { _exit(code) }
        console.error(
            "ftpsync: \(name) received: stopping; finished files are recorded, unfinished ones resume on the next run")
        for token in watched { token.cancel() }
        DispatchQueue.global().asyncAfter(deadline: .now() + grace) { _exit(code) }
    }
}
