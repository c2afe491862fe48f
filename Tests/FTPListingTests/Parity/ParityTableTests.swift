// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import FTPListing

/// The peers' parser test suites, entry by entry (Fixtures/parity, docs/server-quirks.md
/// "Peer parity"): ftpsync reads each line as the suite does, or as `ours` says and `why` explains.
struct ParityTableTests {
    @Test(arguments: ParityTable.entries)
    func entryReadsAsExpected(_ entry: ParityEntry) throws {
        let got = try ParityTable.read(entry)
        let want = entry.expected
        if want.type == "none" {
            #expect(got.type == "none", "\(entry.id): \(got)")
            return
        }
        #expect(got == want, "\(entry.id)")
    }

    @Test func fixturesAreWellFormed() {
        #expect(!ParityTable.entries.isEmpty)
        var seen = Set<String>()
        for entry in ParityTable.entries {
            #expect(seen.insert(entry.id).inserted, "duplicate id \(entry.id)")
            if entry.ours != nil {
                #expect(!(entry.why ?? "").isEmpty, "\(entry.id): a difference needs its reason")
                #expect(entry.ours != entry.theirs, "\(entry.id): `ours` equal to `theirs`")
            }
        }
        for file in ParityTable.files {
            #expect(ParityTable.suites.contains(file.suite), "unknown suite \(file.suite)")
        }
    }

    /// docs/server-quirks.md's table shows the fixtures' numbers.
    @Test func documentedNumbersMatch() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/server-quirks.md"), encoding: .utf8)
        let files = ParityTable.files
        for suite in ParityTable.suites {
            let entries = files.filter { $0.suite == suite }.flatMap(\.entries)
            let differ = entries.filter { $0.ours != nil }.count
            let row = "| \(suite) | \(entries.count) | \(entries.count - differ) | \(differ) |"
            #expect(text.contains(row), "docs/server-quirks.md lacks the row \(row)")
        }
    }
}
