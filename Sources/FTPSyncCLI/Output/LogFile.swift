// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPListing
import Foundation
import SyncConfig
import SyncEngine

/// The file `--log FILE` names, opened for appending at the start of a run and closed at its
/// end, so logrotate may move it between runs; `-` is standard error (the journal, under
/// systemd). Each `LogEvent` is one line, in the run's `LogFormat`: text,
/// `UTC-TIME ftpsync[PID] MESSAGE`, or one JSON object (`LogJSONLine`). A line is written whole
/// with one `write` (O_APPEND), so lines of concurrent runs do not interleave.
final class LogFile: @unchecked Sendable {
    /// The path as given.
    let path: String
    /// The id on every JSON line of this run: 16 hex digits, random.
    let runID: String
    private let descriptor: Int32
    private let lock = NSLock()
    private let pid = getpid()
    private var format: LogFormat
    /// Set at the first line that could not be written (said once on standard error).
    private var failed = false
    /// True once a line could not be written (a full disk): later lines may be lost too.
    var linesLost: Bool {
        lock.lock()
        defer { lock.unlock() }
        return failed
    }
    private let encoder = JSONEncoder()
    /// What every line passes through (secrets masked, control characters escaped).
    private let filter: OutputFilter

    /// Opens (creating it with mode 0640 when missing) `path` for appending, or standard error
    /// for `-`; lines pass through `filter` (the console's, so both mask the same secrets).
    /// - Parameter format: how lines are written until `use(_:)` says otherwise.
    /// - Throws: `UsageError` naming the file and the system's reason when it cannot be opened.
    init(path: String, filter: OutputFilter = OutputFilter(), format: LogFormat = .text) throws {
        // A copy of standard error, not /dev/stderr: that cannot be opened when it is a socket.
        // Non-blocking while it opens: a named pipe nobody reads is refused (ENXIO), not waited on.
        let descriptor =
            path == "-"
            ? fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 0)
            : open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0o640)
        if descriptor >= 0, path != "-" { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK) }
        guard descriptor >= 0 else {
            let name = path == "-" ? "standard error" : path
            throw UsageError("cannot open the log file \(name): \(String(cString: strerror(errno)))")
        }
        self.path = path
        self.descriptor = descriptor
        self.filter = filter
        self.format = format
        runID = String(format: "%016llx", UInt64.random(in: .min ... .max))
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    deinit { close(descriptor) }

    /// Writes the lines from now on in `format` (once the configuration's `log_format` is known).
    func use(_ format: LogFormat) {
        lock.lock()
        defer { lock.unlock() }
        self.format = format
    }

    /// Appends `event` as one line stamped with `date` (default: now). Line breaks inside its
    /// message become spaces; then the message passes through the filter.
    func write(_ event: LogEvent, at date: Date = Date()) {
        let flat = event.message.map { $0 == "\n" || $0 == "\r" ? " " : String($0) }.joined()
        let message = filter.line(flat)
        lock.lock()
        defer { lock.unlock() }
        switch format {
        case .text:
            append("\(UTCFields(date).iso8601) ftpsync[\(pid)] \(message)\n")
        case .json:
            let line = LogJSONLine(event: event, time: date, runID: runID, pid: pid, message: message)
            guard let data = try? encoder.encode(line), let text = String(data: data, encoding: .utf8) else { return }
            append(filter.json(text) + "\n")
        }
    }

    /// Writes the lines of a finished run: one per action (unless `actionsLogged`: they were
    /// written as they finished), per device note and per device error or stop by a run cap, the cap that
    /// stopped the run, a summary with the totals, the elapsed
    /// time (seconds) and the exit code (the document's: 128 + the signal's number when one
    /// stopped the run), then one per skipped entry.
    func write(_ document: RunDocument, elapsed: Double, actionsLogged: Bool = false) {
        func write(_ detail: LogEvent.Detail) {
            self.write(LogEvent(command: document.command, dryRun: document.dryRun, detail: detail))
        }
        for device in document.devices {
            // Logged as they finished: the device's log is not read back.
            if !actionsLogged {
                for action in device.actions { write(.action(device: device.name, report: action)) }
            }
            for note in device.notes { write(.deviceNote(device: device.name, note: note)) }
            if device.status == .stopped, let left = device.left {
                write(.deviceStopped(device: device.name, reason: device.error ?? "", left: left))
            } else if let error = device.error {
                write(.deviceError(device: device.name, status: device.status, error: error))
            }
        }
        if let cap = document.stoppedBy { write(.capReached(cap)) }
        write(
            .runFinished(
                devices: document.devices.count, totals: document.totals, seconds: elapsed,
                exitCode: document.exitCode))
        for device in document.devices {
            for entry in device.skipped { write(.skipped(device: device.name, entry: entry)) }
        }
    }

    /// Says once on standard error that lines are being lost (a full disk), unless the log is
    /// standard error itself; the caller holds `lock`.
    private func reportFailure(_ reason: String) {
        guard !failed else { return }
        failed = true
        guard path != "-" else { return }
        let line =
            "ftpsync: cannot write the log file \(path): \(reason); its lines from here on are lost "
            + "(the run goes on; free space or fix the file for the next run)\n"
        _ = Array(line.utf8).withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// Writes `line` with one `write` (retried where a signal cut it short); the caller holds `lock`.
    private func append(_ line: String) {
        let bytes = Array(line.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                reportFailure(written < 0 ? String(cString: strerror(errno)) : "nothing was written")
                return
            }
            offset += written
        }
    }
}
