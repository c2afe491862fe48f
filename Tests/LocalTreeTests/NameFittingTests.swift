// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import LocalTree

/// Conflict and trash names always fit NAME_MAX (255 bytes), keep the extension, cut the stem
/// on a character boundary and stay distinct for distinct long names.
struct NameFittingTests {
    static let date = Date(timeIntervalSince1970: 1_735_787_045)  // 2025-01-02T03:04:05Z

    static let names: [String] = [
        "notes.txt",
        String(repeating: "\u{5199}", count: 78) + "ab.txt",  // 240 bytes
        String(repeating: "\u{5199}", count: 85),  // 255 bytes, no extension
        String(repeating: "e\u{301}", count: 80) + ".jpeg",  // combining marks
        "a." + String(repeating: "x", count: 250),  // a very long "extension"
        ".hidden" + String(repeating: "h", count: 240),
    ]

    @Test(arguments: names)
    func conflictNamesFitAndKeepTheExtension(name: String) throws {
        let made = LocalFileSystem.conflictName(for: name, at: Self.date)
        #expect(made.utf8.count <= 255, "\(made.utf8.count)")
        #expect(made.contains(".conflict-20250102T030405Z"))
        if let dot = name.lastIndex(of: "."), dot != name.startIndex, name.utf8.count - name[..<dot].utf8.count <= 32 {
            #expect(made.hasSuffix(String(name[dot...])))
        }
    }

    @Test func shortNamesAreUnchanged() {
        #expect(LocalFileSystem.conflictName(for: "notes.txt", at: Self.date) == "notes.conflict-20250102T030405Z.txt")
        #expect(LocalFileSystem.conflictName(for: "README", at: Self.date) == "README.conflict-20250102T030405Z")
    }

    @Test func twoLongNamesCutToTheSameBytesStayDistinct() {
        let stem = String(repeating: "\u{5199}", count: 80)
        let a = LocalFileSystem.conflictName(for: stem + "1.txt", at: Self.date)
        let b = LocalFileSystem.conflictName(for: stem + "2.txt", at: Self.date)
        #expect(a != b)
        #expect(a.utf8.count <= 255 && b.utf8.count <= 255)
    }

    @Test func trashSuffixesFitToo() {
        let name = String(repeating: "n", count: 255)
        let made = NameFitting.fit(stem: name, tag: "~12", ext: "")
        #expect(made.utf8.count == 255)
        #expect(made.hasSuffix("~12"))
    }
}
