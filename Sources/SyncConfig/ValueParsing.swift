// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Coordinated Universal Time, the default zone of LIST times.
let utcTimeZone = TimeZone(secondsFromGMT: 0) ?? TimeZone.current

/// Reads a time zone written as `Z`, `UTC`, `GMT`, an offset (`+08:00`, `-0530`, `+8`,
/// optionally after `UTC`/`GMT`, at most 14 hours), or an IANA name (`Asia/Shanghai`;
/// letter case is forgiven). Ambiguous abbreviations like `CST` are refused. Nil when unknown.
func parseTimeZone(_ text: String) -> TimeZone? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let upper = trimmed.uppercased()
    if ["Z", "UTC", "GMT", "UT"].contains(upper) { return utcTimeZone }
    var offsetText = Substring(trimmed)
    if upper.hasPrefix("UTC") || upper.hasPrefix("GMT") { offsetText = offsetText.dropFirst(3) }
    if let seconds = offsetSeconds(offsetText) { return TimeZone(secondsFromGMT: seconds) }
    guard trimmed.contains("/") else { return nil }
    if let zone = TimeZone(identifier: trimmed) { return zone }
    let lowered = trimmed.lowercased()
    if let match = TimeZone.knownTimeZoneIdentifiers.first(where: { $0.lowercased() == lowered }) {
        return TimeZone(identifier: match)
    }
    return nil
}

/// Seconds east of UTC for `+HH`, `+HHMM`, `+HH:MM` (one or two hour digits; sign required).
private func offsetSeconds(_ text: Substring) -> Int? {
    guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
    let parts = text.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
    let hoursText: Substring
    let minutesText: Substring
    switch parts.count {
    case 1 where parts[0].count <= 2:
        (hoursText, minutesText) = (parts[0], "0")
    case 1 where parts[0].count == 4:
        (hoursText, minutesText) = (parts[0].prefix(2), parts[0].suffix(2))
    case 2 where parts[1].count == 2 && parts[0].count <= 2:
        (hoursText, minutesText) = (parts[0], parts[1])
    default:
        return nil
    }
    guard !hoursText.isEmpty, hoursText.allSatisfy(\.isASCII), minutesText.allSatisfy(\.isASCII),
        let hours = Int(hoursText), let minutes = Int(minutesText), hours <= 14, minutes < 60
    else { return nil }
    let seconds = hours * 3600 + minutes * 60
    guard seconds <= 14 * 3600 else { return nil }
    return sign == "-" ? -seconds : seconds
}

extension ConfigLoader {
    /// Names of file-name encodings `encoding` accepts (lowercase), as the user may write them;
    /// `DeviceConfig.encoding` is always one of these.
    public static let knownEncodings: Set<String> = {
        var names: Set<String> = [
            "utf-8", "utf8", "ascii", "us-ascii",
            "gbk", "cp936", "gb18030", "gb2312", "euc-cn", "hz",
            "big5", "big5-hkscs", "cp950",
            "shift_jis", "shift-jis", "sjis", "cp932", "euc-jp", "iso-2022-jp",
            "euc-kr", "cp949", "uhc", "iso-2022-kr",
            "latin1", "latin2", "latin9", "koi8-r", "koi8-u", "cp437", "cp850", "cp852", "cp866", "cp874",
            "tis-620", "macroman", "mac-roman", "utf-16", "utf-16le", "utf-16be",
        ]
        for part in 1...16 where part != 12 { names.insert("iso-8859-\(part)") }
        for page in 1250...1258 {
            names.insert("cp\(page)")
            names.insert("windows-\(page)")
        }
        return names
    }()
}

/// Normalizes a certificate fingerprint: drops a `sha256:` prefix and colons, lowercases.
/// Nil unless 64 hexadecimal digits remain.
func normalizeFingerprint(_ text: String) -> String? {
    var digits = Substring(text.trimmingCharacters(in: .whitespaces))
    if digits.lowercased().hasPrefix("sha256:") { digits = digits.dropFirst(7) }
    let hex = digits.replacingOccurrences(of: ":", with: "").lowercased()
    guard hex.count == 64, hex.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
    return hex
}

/// True for a device name made only of `A-Z a-z 0-9 . _ -`, other than `.` and `..`.
func isValidDeviceName(_ name: String) -> Bool {
    guard !name.isEmpty, name != ".", name != ".." else { return false }
    return name.unicodeScalars.allSatisfy { scalar in
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", ".", "_", "-": return true
        default: return false
        }
    }
}
