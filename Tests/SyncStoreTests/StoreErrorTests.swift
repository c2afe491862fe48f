// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncStore

/// A failure of the state database is one line for the user, with what to do when there is a
/// fix: never the statement's own lines (they came out as `\x0a` escapes).
struct StoreErrorTests {
    @Test(arguments: [
        (Int32(11), "damaged: move .ftpsync/state.sqlite aside"), (26, "damaged: move .ftpsync/state.sqlite aside"),
        (5, "another process"), (517, "another process"), (13, "disk is full"), (8, "can be written"),
        (1, ""),
    ])
    func aFailureIsOneLineWithItsFix(code: Int32, fix: String) {
        let error = StoreError.sqlite(
            code: code, message: "some SQLite message",
            context: """
                SELECT path, remote_size, remote_mtime
                    FROM records INDEXED BY records_by_parent
                    WHERE device = ?1 AND parent = ?2
                """)
        let line = error.description
        #expect(!line.contains("\n") && !line.contains("    "), "\(line)")
        #expect(line.hasPrefix("state database: SELECT path, remote_size, remote_mtime FROM records INDEXED BY"))
        #expect(line.contains("some SQLite message (SQLite code \(code))"))
        if fix.isEmpty { #expect(line.hasSuffix(")")) } else { #expect(line.contains(fix), "\(line)") }
    }

    @Test func aDamagedStateFileSaysWhatToDo() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-error-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("state.sqlite").path
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: file))
        #expect {
            _ = try StateStore(file: file)
        } throws: { error in
            "\(error)".contains("damaged: move .ftpsync/state.sqlite aside") && !"\(error)".contains("\n")
        }
    }
}
