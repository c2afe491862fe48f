import Foundation

/// Standard output and standard error, written whole lines at a time from any thread.
final class Console: @unchecked Sendable {
    private let lock = NSLock()

    /// Writes `text` and a newline (unless it ends with one) to standard output.
    func out(_ text: String) { write(text, to: FileHandle.standardOutput) }

    /// Writes `text` and a newline (unless it ends with one) to standard error.
    func error(_ text: String) { write(text, to: FileHandle.standardError) }

    /// True when standard error is a terminal.
    var stderrIsTerminal: Bool { isatty(2) == 1 }

    private func write(_ text: String, to handle: FileHandle) {
        let line = text.hasSuffix("\n") ? text : text + "\n"
        lock.lock()
        defer { lock.unlock() }
        handle.write(Data(line.utf8))
    }
}
