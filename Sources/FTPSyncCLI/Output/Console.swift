// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Standard output and standard error, written whole lines at a time from any thread, every
/// line through `filter` (secrets masked, control characters escaped).
///
/// On a terminal it also keeps a live area: a few lines at the bottom of standard error that
/// are redrawn in place (the progress display). Other output first erases the area, then is
/// written, then the area is drawn again below it, so lines never mix with the display.
final class Console: @unchecked Sendable {
    private let lock = NSLock()
    /// The lines of the live area as last drawn on standard error (empty: none shown).
    private var live: [String] = []
    /// What every line passes through before it is written (shared with the run's `LogFile`).
    let filter = OutputFilter()

    /// Writes `text` and a newline (unless it ends with one) to standard output.
    func out(_ text: String) { emit(filter.text(text), to: 1) }

    /// Writes a JSON document (see `jsonText`) to standard output, secrets masked inside its strings.
    func json(_ document: String) { emit(filter.json(document), to: 1) }

    /// Writes a piece of a JSON document written in pieces (`RunDocument.writeJSON`) to standard
    /// output as it is, no line feed added, secrets masked inside its strings (each whole in it).
    func jsonPiece(_ piece: String) { emit(filter.json(piece), to: 1, endingLine: false) }

    /// Writes `text` and a newline (unless it ends with one) to standard error.
    func error(_ text: String) { emit(filter.text(text), to: 2) }

    /// True when standard error is a terminal.
    var stderrIsTerminal: Bool { isatty(2) == 1 }

    /// Replaces the live area with `lines` (none: erase it), in one write. Each line must fit
    /// the terminal's width, or the next redraw leaves traces.
    func setLive(_ lines: [String]) {
        let lines = lines.map(filter.line)
        lock.lock()
        defer { lock.unlock() }
        let text = Console.erase(live.count) + lines.joined(separator: "\n")
        live = lines
        Console.send(text, to: 2)
    }

    /// Escape codes that erase a live area of `count` lines with the cursor at the end of its
    /// last line, leaving the cursor at the start of its first line: CR, cursor up (CUU),
    /// erase to the end of the screen (ED).
    static func erase(_ count: Int) -> String {
        guard count > 0 else { return "" }
        return "\r" + (count > 1 ? "\u{1B}[\(count - 1)A" : "") + "\u{1B}[J"
    }

    /// Writes `text` to `descriptor` around the live area, with a line feed added unless it
    /// ends with one or `endingLine` is false.
    private func emit(_ text: String, to descriptor: Int32, endingLine: Bool = true) {
        let line = text.hasSuffix("\n") || !endingLine ? text : text + "\n"
        lock.lock()
        defer { lock.unlock() }
        // Standard output elsewhere (a file, a pipe) does not disturb the area.
        let aside = !live.isEmpty && (descriptor == 2 || isatty(descriptor) == 1)
        if aside { Console.send(Console.erase(live.count), to: 2) }
        Console.send(line, to: descriptor)
        if aside { Console.send(live.joined(separator: "\n"), to: 2) }
    }

    /// Writes all of `text` to `descriptor` (write(2), retried when interrupted). Output that
    /// cannot be written — a reader gone (`| head`: EPIPE), a closed descriptor (`>&-`: EBADF),
    /// a full disk — is dropped, never fatal: the run goes on, and its state and log are what
    /// count. SIGPIPE is ignored (`FTPSyncCLI.main`), so a gone reader is an error here.
    static func send(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            bytes = bytes.dropFirst(count)
        }
    }
}
