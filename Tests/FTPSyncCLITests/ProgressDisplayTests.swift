// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import SyncCore
import SyncEngine
import Testing

@testable import FTPSyncCLI

/// The pieces of the progress display, fed real events with the clock as a parameter.
@Suite struct ProgressDisplayTests {
    @Test(
        arguments: [
            (nil, "-- B/s"), (0.0, "0 B/s"), (812.4, "812 B/s"), (1024.0, "1.0 KiB/s"), (12_595.2, "12.3 KiB/s"),
            (1_258_291.2, "1.2 MiB/s"), (3.5 * 1_073_741_824, "3.5 GiB/s"), (-1.0, "-- B/s"),
        ] as [(Double?, String)])
    func rates(bytesPerSecond: Double?, text: String) {
        #expect(ProgressFormat.rate(bytesPerSecond) == text)
    }

    @Test(
        arguments: [
            (nil, "--:--"), (0.0, "0:00"), (6.2, "0:07"), (754.0, "12:34"), (3723.0, "1:02:03"),
            (400_000.0, "--:--"), (Double.infinity, "--:--"),
        ] as [(Double?, String)])
    func durations(seconds: Double?, text: String) {
        #expect(ProgressFormat.duration(seconds) == text)
    }

    @Test(
        arguments: [
            (0, 100, "  0%"), (40, 100, " 40%"), (999, 1000, " 99%"), (1000, 1000, "100%"), (5, 0, "100%"),
            (1200, 1000, "100%"),
        ] as [(UInt64, UInt64, String)])
    func percentages(done: UInt64, total: UInt64, text: String) {
        #expect(ProgressFormat.percent(done, of: total) == text)
    }

    @Test func unknownTotalShowsAQuestionMark() {
        #expect(ProgressFormat.percent(10, of: nil) == "  ?%")
    }

    @Test(arguments: [
        ("abc", 3), ("中文 photo.jpg", 14), ("e\u{301}", 1), ("日本", 4), ("tab\u{7}", 3),
    ])
    func columnsOfText(text: String, columns: Int) {
        #expect(ProgressFormat.columns(text) == columns)
    }

    @Test(arguments: [
        ("DCIM/2024/photo.jpg", 30, "DCIM/2024/photo.jpg", "DCIM/2024/photo.jpg"),
        ("DCIM/2024/photo.jpg", 10, "DCIM/2024…", "…photo.jpg"),
        ("照片/中文名字.jpg", 10, "照片/中文…", "…名字.jpg"),
        ("abc", 0, "", ""),
    ])
    func fittingCutsToTheColumns(text: String, width: Int, fromEnd: String, fromStart: String) {
        #expect(ProgressFormat.fit(text, width: width) == fromEnd)
        #expect(ProgressFormat.fitKeepingEnd(text, width: width) == fromStart)
        #expect(ProgressFormat.columns(ProgressFormat.fit(text, width: width)) <= width)
        #expect(ProgressFormat.columns(ProgressFormat.fitKeepingEnd(text, width: width)) <= width)
    }

    @Test func eraseMovesUpOverTheAreaAndClearsToTheEndOfTheScreen() {
        #expect(Console.erase(0) == "")
        #expect(Console.erase(1) == "\r\u{1B}[J")
        #expect(Console.erase(3) == "\r\u{1B}[2A\u{1B}[J")
    }

    @Test(
        arguments: [
            // quiet, progress, no-progress, dry run, terminal, TERM → display
            (false, false, false, false, true, "xterm", RunProgress.Display.terminal),
            (false, false, false, false, false, "xterm", .lines),
            (false, true, false, false, false, nil, .lines),
            (false, false, false, false, true, "dumb", .lines),
            (true, false, false, false, true, "xterm", .none),
            (true, true, false, false, true, "xterm", .none),
            (false, false, true, false, true, "xterm", .none),
            (false, true, true, false, false, "xterm", .none),
            (false, false, false, true, true, "xterm", .none),
            // --progress turns the display on in a dry run, on a pipe as on a terminal.
            (false, true, false, true, false, nil, .lines),
            (false, true, false, true, true, "xterm", .terminal),
        ] as [(Bool, Bool, Bool, Bool, Bool, String?, RunProgress.Display)])
    func displayChoice(
        quiet: Bool, progress: Bool, noProgress: Bool, dryRun: Bool, terminal: Bool, term: String?,
        expected: RunProgress.Display
    ) {
        let display = RunProgress.display(
            quiet: quiet, progress: progress, noProgress: noProgress, dryRun: dryRun, stderrIsTerminal: terminal,
            term: term)
        #expect(display == expected)
    }

    private func action(_ kind: ActionKind, _ path: String, bytes: UInt64 = 0, offset: UInt64 = 0) throws -> Action {
        Action(kind: kind, path: try RelativePath(validating: path), bytes: bytes, offset: offset, reason: "test")
    }

    @Test func aDeviceLineCountsFilesBytesRateAndETA() throws {
        var model = ProgressModel()
        let mkdir = try action(.mkdirLocal, "DCIM")
        let first = try action(.download, "DCIM/a.jpg", bytes: 400_000)
        let second = try action(.download, "DCIM/b.jpg", bytes: 600_000, offset: 400_000)
        model.apply(.deviceStarted(device: "cam"), at: 10)
        #expect(model.lines(width: 100, height: 10) == ["cam  connecting and listing…"])
        model.apply(.planned(device: "cam", actions: 3, transfers: 2, bytesToTransfer: 1_000_000), at: 10)
        model.apply(.actionStarted(device: "cam", id: 0, action: mkdir), at: 10)
        model.apply(.actionFinished(device: "cam", id: 0, report: ActionReport(action: mkdir, status: .done)), at: 10)
        model.apply(.actionStarted(device: "cam", id: 1, action: first), at: 10)
        model.sample(at: 10)
        model.apply(.transferProgress(device: "cam", id: 1, bytesDone: 100_000, bytesTotal: 400_000), at: 11)
        model.sample(at: 11)
        var lines = model.lines(width: 100, height: 10)
        #expect(lines.count == 2)
        #expect(lines.first == "cam  0/2 files  97.7 KiB of 976.6 KiB  10%  97.7 KiB/s  ETA 0:09")
        #expect(lines.last?.hasPrefix("  ↓  25%") == true && lines.last?.hasSuffix("DCIM/a.jpg") == true)
        #expect(lines.last?.contains("97.7 KiB/s") == true)

        model.apply(.actionFinished(device: "cam", id: 1, report: ActionReport(action: first, status: .done)), at: 11)
        model.apply(.actionStarted(device: "cam", id: 2, action: second), at: 11)
        // A resumed transfer starts at its offset: the file is 40% there, the device 40% done.
        model.apply(.transferProgress(device: "cam", id: 2, bytesDone: 400_000, bytesTotal: 1_000_000), at: 11)
        lines = model.lines(width: 100, height: 10)
        #expect(lines.first?.hasPrefix("cam  1/2 files  390.6 KiB of 976.6 KiB  40%") == true)
        #expect(lines.last?.hasPrefix("  ↓  40%") == true)

        // A failed transfer is no longer expected: the device can still reach 100%.
        model.apply(.transferProgress(device: "cam", id: 2, bytesDone: 500_000, bytesTotal: 1_000_000), at: 11)
        let failed = ActionReport(action: second, status: .failed, error: "cut")
        model.apply(.actionFinished(device: "cam", id: 2, report: failed), at: 11)
        lines = model.lines(width: 100, height: 10)
        #expect(lines == ["cam  2/2 files  488.3 KiB of 488.3 KiB  100%  488.3 KiB/s  ETA 0:00  1 failed"])
        model.apply(.deviceFinished(device: "cam", report: DeviceReport(name: "cam")), at: 11)
        #expect(model.lines(width: 100, height: 10).isEmpty)
    }

    @Test func linesFitTheTerminal() throws {
        var model = ProgressModel()
        var actions: [Action] = []
        for index in 0..<6 {
            actions.append(try action(.download, "照片/一个很长很长很长很长的名字-\(index).jpg", bytes: 1000))
        }
        for name in ["front-camera", "back-camera"] {
            model.apply(.deviceStarted(device: name), at: 0)
            model.apply(
                .planned(device: name, actions: actions.count, transfers: actions.count, bytesToTransfer: 6000), at: 0)
            for (id, action) in actions.enumerated() {
                model.apply(.actionStarted(device: name, id: id, action: action), at: 0)
            }
        }
        for width in [20, 40, 79] {
            let lines = model.lines(width: width, height: 8)
            #expect(lines.count == 8)
            #expect(lines.allSatisfy { ProgressFormat.columns($0) <= width }, "\(lines)")
            #expect(lines.filter { $0.hasPrefix("front-camera") || $0.hasPrefix("back-camera") }.count == 2)
        }
    }
}
