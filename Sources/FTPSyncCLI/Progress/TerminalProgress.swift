// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncEngine

/// The live progress display on a terminal: the events of all devices go into one
/// `ProgressModel`, and a thread of its own redraws the console's live area at most 10 times a
/// second. `stop()` erases the display, so the report that follows starts on a clean line.
final class TerminalProgress: @unchecked Sendable {
    private let console: Console
    private let condition = NSCondition()
    private var model = ProgressModel()
    private var stopped = false
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)
    /// Least time between two redraws, in seconds.
    static let interval = 0.1

    init(console: Console) { self.console = console }

    /// Takes an event in (any thread); drawn at the next redraw.
    func handle(_ event: SyncEvent) {
        condition.lock()
        model.apply(event, at: TerminalProgress.now())
        condition.unlock()
    }

    /// Tells the display how many devices the run has (its first line counts them).
    func expect(devices: Int) {
        condition.lock()
        model.devicesInRun = devices
        condition.unlock()
    }

    /// Starts the redrawing thread.
    func start() {
        let thread = Thread { [self] in
            redrawLoop()
            finished.signal()
        }
        thread.stackSize = 1 << 19
        self.thread = thread
        thread.start()
    }

    /// Stops redrawing and erases the display; returns when the thread has ended.
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
        if thread != nil { finished.wait() }
        thread = nil
        console.setLive([])
    }

    private func redrawLoop() {
        condition.lock()
        defer { condition.unlock() }
        var shown: [String] = []
        while !stopped {
            _ = condition.wait(until: Date().addingTimeInterval(Self.interval))
            guard !stopped else { break }
            let size = TerminalProgress.size()
            model.sample(at: TerminalProgress.now())
            // One column is left free: writing the last column leaves some terminals waiting to wrap.
            let lines = model.lines(width: size.columns - 1, height: max(1, size.rows - 2))
            guard lines != shown else { continue }
            shown = lines
            condition.unlock()
            console.setLive(lines)
            condition.lock()
        }
    }

    /// A monotonic clock, in seconds.
    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// The terminal's size (standard error), 80×24 when unknown.
    static func size() -> (columns: Int, rows: Int) {
        var window = winsize()
        guard ioctl(2, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0 else { return (80, 24) }
        return (Int(window.ws_col), max(3, Int(window.ws_row)))
    }
}
