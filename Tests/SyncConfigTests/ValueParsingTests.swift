// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncConfig

/// Time zone texts and the seconds east of UTC they mean (nil: refused).
let timeZoneCases: [(String, Int?)] = [
    ("UTC", 0), ("utc", 0), ("Z", 0), ("GMT", 0), ("+08:00", 28_800), ("+0800", 28_800), ("+8", 28_800),
    ("-0530", -19_800), ("-05:30", -19_800), ("UTC+8", 28_800), ("GMT-03:00", -10_800), ("+14:00", 50_400),
    ("+15:00", nil), ("+08:60", nil), ("08:00", nil), ("+", nil), ("+123", nil), ("CST", nil), ("EST", nil),
    ("Mars/Olympus", nil), ("", nil), ("+٨", nil),
]

@Test(arguments: timeZoneCases)
func timeZoneTexts(text: String, seconds: Int?) {
    #expect(parseTimeZone(text)?.secondsFromGMT() == seconds)
}

@Test func ianaNamesKeepTheirRules() throws {
    #expect(parseTimeZone("Asia/Shanghai")?.identifier == "Asia/Shanghai")
    #expect(parseTimeZone("asia/shanghai")?.identifier == "Asia/Shanghai")
    let berlin = try #require(parseTimeZone("Europe/Berlin"))
    let winter = Date(timeIntervalSince1970: 1_704_067_200)  // 2024-01-01 UTC
    let summer = Date(timeIntervalSince1970: 1_719_792_000)  // 2024-07-01 UTC
    #expect(berlin.secondsFromGMT(for: winter) == 3600)
    #expect(berlin.secondsFromGMT(for: summer) == 7200)
}

/// Fingerprint texts and their normal form (nil: refused).
let fingerprintCases: [(String, String?)] = [
    (String(repeating: "ab", count: 32), String(repeating: "ab", count: 32)),
    ("SHA256:" + Array(repeating: "AB", count: 32).joined(separator: ":"), String(repeating: "ab", count: 32)),
    ("sha256:" + String(repeating: "0F", count: 32), String(repeating: "0f", count: 32)),
    (String(repeating: "ab", count: 31), nil),
    (String(repeating: "gg", count: 32), nil),
    ("sha1:" + String(repeating: "ab", count: 32), nil),
    ("sha256:…", nil),
]

@Test(arguments: fingerprintCases)
func fingerprints(text: String, normalized: String?) {
    #expect(normalizeFingerprint(text) == normalized)
}

@Test(arguments: [
    "utf-8", "UTF-8", "gbk", "GB18030", "gb2312", "big5", "Shift_JIS", "euc-jp", "euc-kr", "latin1", "iso-8859-1",
    "ISO-8859-15", "cp1250", "cp1258", "windows-1252", "koi8-r",
])
func knownEncodingsAreAcceptedAndLowercased(name: String) throws {
    let config = try parsed("local: /m\ndevices: [{name: a, host: h, encoding: \(name)}]")
    #expect(config.devices[0].encoding == name.lowercased())
}

/// Misspelled keys and the suggestion (nil: none close enough).
let suggestionCases: [(String, String?)] = [
    ("hots", "host"), ("prot", "port"), ("pasword", "password"), ("passwd_env", "password_env"),
    ("Host", "host"), ("time_zone", "timezone"), ("excludes", "exclude"), ("passive-address", "passive_address"),
    ("tz", nil), ("zebra", nil), ("x", nil),
]

@Test(arguments: suggestionCases)
func keySuggestions(key: String, suggestion: String?) {
    #expect(nearestKey(to: key, among: DeviceFields.keys) == suggestion)
}

/// Device names and whether they are valid.
let nameCases: [(String, Bool)] = [
    ("front-camera", true), ("cam_1.backup", true), ("A9", true), ("...", true),
    ("", false), (".", false), ("..", false), ("a b", false), ("a/b", false), ("café", false), ("a:b", false),
]

@Test(arguments: nameCases)
func deviceNames(name: String, valid: Bool) {
    #expect(isValidDeviceName(name) == valid)
}
