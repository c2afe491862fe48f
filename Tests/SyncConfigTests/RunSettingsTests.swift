// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Testing

@testable import SyncConfig

/// The top-level keys about a whole run (CONTRACT.md 0.2) and the durations they are written in.
struct RunSettingsTests {
    private let base = "local: ./mirror\ndevices:\n  - name: cam\n    host: 127.0.0.1\n"

    @Test(arguments: [
        ("90s", 90), ("15m", 900), ("2h", 7_200), ("7d", 604_800), ("2w", 1_209_600), ("3600", 3_600),
        (" 30D ", 2_592_000), ("0", 0),
    ])
    func durationsInTheirUnits(text: String, seconds: Int) {
        #expect(DurationText.seconds(text) == seconds)
    }

    @Test(arguments: ["", "d", "-5m", "1.5h", "5 m", "10y", "99999999999999d", "1e3", "٣h"])
    func notADuration(text: String) {
        #expect(DurationText.seconds(text) == nil)
    }

    @Test func withoutTheKeysTheDefaultsHold() throws {
        let settings = try parsed(base).run
        #expect(settings == RunSettings())
        #expect(settings.trashRetentionSeconds == 30 * 86_400)
    }

    @Test func everyKeyIsRead() throws {
        let text =
            base + """
                metrics_file: metrics/ftpsync.prom
                log_format: JSON
                trash_retention: 12h
                on_finish: |
                  cat > /tmp/last-run.json
                  echo done
                on_failure: mail -s 'ftpsync failed' root
                """
        let settings = try parsed(text).run
        #expect(settings.metricsFile == "/srv/sync/metrics/ftpsync.prom")
        #expect(settings.logFormat == .json)
        #expect(settings.trashRetentionSeconds == 43_200)
        #expect(settings.onFinish == "cat > /tmp/last-run.json\necho done\n")
        #expect(settings.onFailure == "mail -s 'ftpsync failed' root")
        #expect(try parsed(base + "trash_retention: 0\n").run.trashRetentionSeconds == 0)
    }

    @Test(arguments: [
        ("log_format: xml\n", "'log_format' must be one of text, json"),
        ("trash_retention: soon\n", "'trash_retention' must be a duration"),
        ("on_finish: ''\n", "'on_finish' must not be empty"),
        ("metrics_file:\n", "'metrics_file' must not be empty"),
        ("metrics_fle: x\n", "did you mean 'metrics_file'?"),
    ])
    func aBadValueIsRefusedWithItsLine(line: String, message: String) {
        let error = parseError(base + line)
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
        #expect(error?.line == 5)
    }
}
