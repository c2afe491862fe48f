// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// Pieces of the progress display: rates, times, percentages, and fitting text into the
/// columns of a terminal.
enum ProgressFormat {
    /// `812 B/s`, `12.3 KiB/s`, `1.2 MiB/s` from bytes per second; `-- B/s` when unknown.
    static func rate(_ bytesPerSecond: Double?) -> String {
        guard let value = bytesPerSecond, value.isFinite, value >= 0 else { return "-- B/s" }
        let units = ["B/s", "KiB/s", "MiB/s", "GiB/s"]
        var scaled = value
        var unit = 0
        while scaled >= 1024 && unit < units.count - 1 {
            scaled /= 1024
            unit += 1
        }
        return unit == 0 ? "\(Saturating.int(scaled)) B/s" : String(format: "%.1f %@", scaled, units[unit])
    }

    /// `0:07`, `12:34`, `1:02:03` from seconds; `--:--` when unknown or beyond 100 hours.
    static func duration(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite, seconds >= 0, seconds < 360_000 else { return "--:--" }
        let whole = Int(seconds.rounded(.up))
        let (hours, minutes, secs) = (whole / 3600, whole / 60 % 60, whole % 60)
        return hours > 0
            ? String(format: "%d:%02d:%02d", hours, minutes, secs) : String(format: "%d:%02d", minutes, secs)
    }

    /// `  0%` … `100%` (width 4), rounded down so 100% means done; `  ?%` when the total is unknown.
    static func percent(_ done: UInt64, of total: UInt64?) -> String {
        guard let total else { return "  ?%" }
        let value = total == 0 ? 100 : Int(min(100, Double(done) / Double(total) * 100))
        let text = "\(value)%"
        return String(repeating: " ", count: max(0, 4 - text.count)) + text
    }

    /// Columns `character` takes on a terminal: 2 for East Asian wide characters, 0 for
    /// combining marks and controls, else 1.
    static func columns(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        if scalar.properties.generalCategory == .nonspacingMark { return 0 }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
        ]
        return wide.contains { $0.contains(value) } ? 2 : 1
    }

    /// Columns `text` takes on a terminal.
    static func columns(_ text: String) -> Int { text.reduce(0) { $0 + columns($1) } }

    /// `text` cut to at most `width` columns, its end replaced by `…` when cut.
    static func fit(_ text: String, width: Int) -> String {
        guard columns(text) > width else { return text }
        guard width > 0 else { return "" }
        var result = ""
        var used = 0
        for character in text {
            let size = columns(character)
            if used + size > width - 1 { break }
            result.append(character)
            used += size
        }
        return result + "…"
    }

    /// `text` cut to at most `width` columns keeping its end (the file name), its start
    /// replaced by `…` when cut.
    static func fitKeepingEnd(_ text: String, width: Int) -> String {
        guard columns(text) > width else { return text }
        guard width > 0 else { return "" }
        var kept: [Character] = []
        var used = 0
        for character in text.reversed() {
            let size = columns(character)
            if used + size > width - 1 { break }
            kept.append(character)
            used += size
        }
        return "…" + String(kept.reversed())
    }

    /// `text` with spaces added on the left up to `width` columns.
    static func padLeft(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - columns(text))) + text
    }

    /// `text` with spaces added on the right up to `width` columns.
    static func padRight(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - columns(text)))
    }
}
