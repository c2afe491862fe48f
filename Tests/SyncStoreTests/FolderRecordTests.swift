// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@testable import SyncStore

/// Schema 6: the records of one folder, the folders holding records, and the records a new
/// file could have moved from, each by an index seek (issue 17).
struct FolderRecordTests {
    private static func path(_ text: String) -> RelativePath { (try? RelativePath(validating: text)) ?? .root }

    private static func record(_ text: String, size: UInt64? = 1, time: FileTime? = nil) -> FileRecord {
        FileRecord(
            path: path(text), remoteSize: size, remoteModified: time ?? FileTime(seconds: 1e9, granularity: .second),
            localSize: size ?? 0, localModified: FileTime(seconds: 1e9, granularity: .exact), digest: nil)
    }

    private static let paths = [
        "top.txt", "a/1", "a/b/2", "a/b/c/3", "a!/4", "a b/5", "a-b/x/6", "ab/7", "中文/照片.jpg", "z/y/x/w/8",
    ]

    private func filledStore(_ folder: TempFolder) throws -> StateStore {
        let store = try StateStore.open(localRoot: folder.path)
        for text in Self.paths { try store.upsertRecord(Self.record(text), device: "cam") }
        try store.upsertRecord(Self.record("other/9"), device: "other")
        return store
    }

    @Test func theRecordsOfOneFolderAreThoseDirectlyInIt() throws {
        let folder = try TempFolder()
        let store = try filledStore(folder)
        defer { store.close() }
        #expect(try store.records(device: "cam", folder: .root).map(\.path.string) == ["top.txt"])
        #expect(try store.records(device: "cam", folder: Self.path("a")).map(\.path.string) == ["a/1"])
        #expect(try store.records(device: "cam", folder: Self.path("a/b")).map(\.path.string) == ["a/b/2"])
        #expect(try store.records(device: "cam", folder: Self.path("z/y")).isEmpty)
        #expect(try store.records(device: "cam", folder: Self.path("中文")).map(\.path.string) == ["中文/照片.jpg"])
        #expect(try store.records(device: "cam", folder: Self.path("other")).isEmpty)
    }

    /// A state holding one name in two spellings (rows written by hand, or by runs that saw the
    /// name spelled apart): the folder's table finds the record by either spelling, as the
    /// whole-tree plan's dictionary does.
    @Test func aNameRecordedInTwoSpellingsIsFoundByEither() throws {
        let folder = try TempFolder()
        let store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        // SQLite gives "ά" (U+03AC) before "α" + U+0301: the last row, kept, is not in NFC.
        try store.upsertRecord(Self.record("g/\u{3ac}.jpg", size: 1), device: "cam")
        try store.upsertRecord(Self.record("g/\u{3b1}\u{301}.jpg", size: 2), device: "cam")
        let table = try store.records(device: "cam", folder: Self.path("g"))
        #expect(table.count == 1)
        #expect(table[Self.path("g/\u{3ac}.jpg")]?.remoteSize == 2)
        #expect(table[Self.path("g/\u{3b1}\u{301}.jpg")]?.remoteSize == 2)
    }

    @Test func theFoldersHoldingRecordsAreFoundOncePerChild() throws {
        let folder = try TempFolder()
        let store = try filledStore(folder)
        defer { store.close() }
        #expect(
            try store.recordFolders(device: "cam", in: .root).map(\.string) == [
                "a", "a b", "a!", "a-b", "ab", "z", "中文",
            ])
        #expect(try store.recordFolders(device: "cam", in: Self.path("a")).map(\.string) == ["a/b"])
        #expect(try store.recordFolders(device: "cam", in: Self.path("a/b")).map(\.string) == ["a/b/c"])
        #expect(try store.recordFolders(device: "cam", in: Self.path("a-b")).map(\.string) == ["a-b/x"])
        #expect(try store.recordFolders(device: "cam", in: Self.path("z/y")).map(\.string) == ["z/y/x"])
        #expect(try store.recordFolders(device: "cam", in: Self.path("a/b/c")).isEmpty)
        #expect(try store.recordFolders(device: "other", in: .root).map(\.string) == ["other"])
    }

    @Test func recordsBelowAFolderAreSeenAtAnyDepth() throws {
        let folder = try TempFolder()
        let store = try filledStore(folder)
        defer { store.close() }
        #expect(try store.hasRecords(device: "cam", below: .root))
        #expect(try store.hasRecords(device: "cam", below: Self.path("z")))
        #expect(try store.hasRecords(device: "cam", below: Self.path("a/b/c")))
        #expect(try !store.hasRecords(device: "cam", below: Self.path("a/b/c/3")))
        #expect(try !store.hasRecords(device: "cam", below: Self.path("b")))
        #expect(try !store.hasRecords(device: "nobody", below: .root))
    }

    @Test func aNewFileCanBeAMoveOnlyWhenARecordHasItsSizeAndTime() throws {
        let folder = try TempFolder()
        let store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        let minute = FileTime(seconds: 1_700_000_040, granularity: .minute)
        try store.upsertRecord(Self.record("clip.mp4", size: 500, time: minute), device: "cam")
        try store.upsertRecord(Self.record("huge", size: UInt64.max, time: minute), device: "cam")
        try store.upsertRecord(Self.record("no-size", size: nil, time: minute), device: "cam")
        let within = FileTime(seconds: 1_700_000_070, granularity: .second)
        let outside = FileTime(seconds: 1_700_000_200, granularity: .second)
        #expect(try store.hasRecord(device: "cam", remoteSize: 500, matching: within))
        #expect(try !store.hasRecord(device: "cam", remoteSize: 500, matching: outside))
        #expect(try !store.hasRecord(device: "cam", remoteSize: 501, matching: within))
        #expect(try store.hasRecord(device: "cam", remoteSize: UInt64.max, matching: within))
        #expect(try !store.hasRecord(device: "other", remoteSize: 500, matching: within))
    }

    @Test func aVersionFiveStateGetsTheFolderOfEveryRecord() throws {
        let folder = try TempFolder()
        let connection = try stateAtVersion(5, in: folder.path)
        for text in Self.paths {
            try connection.query(
                """
                INSERT INTO records (device, path, remote_size, remote_mtime, remote_precision, local_size,
                    local_mtime, local_precision) VALUES ('cam', ?1, 1, 1e9, 2, 1, 1e9, 3)
                """, [.text(text)])
        }
        connection.close()
        let store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        #expect(try store.storedSchemaVersion() == StateStore.schemaVersion)
        var byFolder: [String] = []
        var pending: [RelativePath] = [.root]
        while let next = pending.popLast() {
            byFolder += try store.records(device: "cam", folder: next).map(\.path.string)
            pending += try store.recordFolders(device: "cam", in: next)
        }
        #expect(byFolder.sorted() == Self.paths.sorted())
        #expect(try store.records(device: "cam", folder: Self.path("z/y/x/w")).map(\.path.string) == ["z/y/x/w/8"])
        #expect(try store.records(device: "cam", folder: Self.path("中文")).map(\.path.string) == ["中文/照片.jpg"])
    }

    /// Many records of one size near the time and none matching: past the row limit the answer
    /// is "maybe" (the walk holds the file), not a read of them all for every new file.
    @Test func manyRecordsOfOneSizeAnswerMaybePastTheRowLimit() throws {
        let folder = try TempFolder()
        let store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        let records = (0..<200).map { index in
            Self.record("d/\(index)", size: 7, time: FileTime(seconds: 1e9 + Double(index) * 10, granularity: .second))
        }
        try store.upsertRecords(records, device: "cam")
        let time = FileTime(seconds: 1e9 + 5, granularity: .second)
        #expect(try !store.hasRecord(device: "cam", remoteSize: 7, matching: time, rowLimit: 1_000))
        #expect(try store.hasRecord(device: "cam", remoteSize: 7, matching: time, rowLimit: 64))
    }
}
