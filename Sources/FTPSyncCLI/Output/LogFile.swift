import FTPListing
import Foundation
import SyncEngine

/// The file `--log FILE` names, opened for appending at the start of a run and closed at its
/// end, so logrotate may move it between runs. Every line is `UTC-TIME ftpsync[PID] MESSAGE`,
/// written whole with one `write` (O_APPEND), so lines of concurrent runs do not interleave.
final class LogFile: @unchecked Sendable {
    /// The path as given.
    let path: String
    private let descriptor: Int32
    private let lock = NSLock()
    private let pid = getpid()
    /// What every line passes through (secrets masked, control characters escaped).
    private let filter: OutputFilter

    /// Opens (creating it with mode 0640 when missing) `path` for appending; lines pass
    /// through `filter` (the console's, so both mask the same secrets).
    /// - Throws: `UsageError` naming the file and the system's reason when it cannot be opened.
    init(path: String, filter: OutputFilter = OutputFilter()) throws {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o640)
        guard descriptor >= 0 else {
            throw UsageError("cannot open the log file \(path): \(String(cString: strerror(errno)))")
        }
        self.path = path
        self.descriptor = descriptor
        self.filter = filter
    }

    deinit { close(descriptor) }

    /// Appends one line stamped with `date` (default: now). Line breaks inside `message` become
    /// spaces; then it passes through the filter.
    func write(_ message: String, at date: Date = Date()) {
        let flat = filter.line(message.map { $0 == "\n" || $0 == "\r" ? " " : String($0) }.joined())
        let line = "\(UTCFields(date).iso8601) ftpsync[\(pid)] \(flat)\n"
        let bytes = Array(line.utf8)
        lock.lock()
        defer { lock.unlock() }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Writes the report of a finished run: one line per action (unless `actionsLogged`: they
    /// were written as they finished) and per device error, then a summary line with the
    /// totals, the elapsed time (seconds) and the exit code (the document's: 128 + the
    /// signal's number when one stopped the run).
    func write(_ document: RunDocument, elapsed: Double, actionsLogged: Bool = false) {
        let command = document.command + (document.dryRun ? " --dry-run" : "")
        for device in document.devices {
            // Logged as they finished: the device's log is not read back.
            if !actionsLogged {
                for action in device.actions { write("\(command) \(device.name): " + LogFile.line(for: action)) }
            }
            if let error = device.error {
                write("\(command) \(device.name): \(device.status.rawValue): \(error)")
            }
        }
        let t = document.totals
        let verb = document.dryRun ? "planned" : "done"
        write(
            "\(command) summary: \(document.devices.count) device(s), \(verb) \(t.filesTransferred) files "
                + "(\(t.bytesTransferred) bytes), \(t.renamed) renamed, \(t.deleted) deleted, \(t.failed) failed, "
                + String(format: "%.1f s", elapsed) + ", exit \(document.exitCode)")
    }

    /// `download 2024/a.jpg 1048576 bytes done`, `rename_local a -> b done`, `... failed: reason`.
    static func line(for action: ActionReport) -> String {
        var line = action.kind.rawValue + " " + action.path
        if let to = action.to { line += " -> " + to }
        if action.kind == .download || action.kind == .upload {
            line += " \(action.bytes) bytes"
            if action.offset > 0 { line += " from offset \(action.offset)" }
        }
        line += " " + action.status.rawValue
        if let error = action.error { line += ": " + error }
        return line
    }
}
