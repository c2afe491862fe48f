// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree
import Testing

@testable import FTPSyncCLI

/// What a pull's trash purge puts in the log: bounded lines, one per failure.
struct TrashPurgeLinesTests {
    private func logged(_ outcome: TrashPurge.Outcome?) throws -> [String] {
        let path = NSTemporaryDirectory() + "trash-lines-\(UUID().uuidString).log"
        defer { unlink(path) }
        do {
            let log = try LogFile(path: path)
            reportTrashPurge(outcome, command: "pull", console: Console(), log: log)
        }
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        // `UTC-TIME ftpsync[PID] MESSAGE`: the message.
        return text.split(separator: "\n").map { String($0.split(separator: " ", maxSplits: 2).last ?? "") }
    }

    @Test func aPurgeIsOneBoundedLineAndEachFailureOneMore() throws {
        var outcome = TrashPurge.Outcome()
        outcome.removedFolders = (10..<22).map { "202001\($0)T000000Z" }
        outcome.removedEntries = 40
        outcome.foreignNames = ["notes"]
        outcome.errors = ["unlink x: Permission denied"]
        outcome.moreErrors = 3
        let lines = try logged(outcome)
        #expect(lines.count == 4, "\(lines)")
        #expect(
            lines.first
                == "pull trash: removed 12 folder(s) older than trash_retention (40 entries): "
                + (10..<20).map { "202001\($0)T000000Z" }.joined(separator: ", ") + " and 2 more")
        #expect(lines.contains("pull trash: left alone (not a run's UTC stamp): notes"))
        #expect(lines.contains { $0.hasPrefix("pull trash: not removed: unlink x: Permission denied") })
        #expect(lines.contains { $0.hasPrefix("pull trash: not removed: and 3 more failures") })
    }

    @Test func nothingDoneIsNothingSaid() throws {
        #expect(try logged(nil).isEmpty)
        #expect(try logged(TrashPurge.Outcome()).isEmpty)
    }
}
