// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@testable import SyncEngine

/// The spool's binary form of an action: every field comes back, and bytes that are not a
/// whole valid action are a typed error, never a trap.
@Suite struct ActionCodingTests {
    /// A path of one component holding every byte a name may hold (all but NUL and `/`), as
    /// Unicode scalars, then letters beyond ASCII, a combining mark and an emoji.
    static let everyByteName: String = {
        var scalars = String.UnicodeScalarView()
        for value in 1...0x7F where value != 0x2F { scalars.append(Unicode.Scalar(UInt8(value))) }
        return String(scalars) + "é日本語e\u{301}😀\u{FFFD}"
    }()

    static func path(_ text: String) -> RelativePath { (try? RelativePath(validating: text)) ?? .root }

    /// Odd actions: empty and huge sizes, names with every byte, raw names, no source, every
    /// optional field present or absent, every kind, resolution, entry kind and granularity.
    static let odd: [Action] = {
        var actions: [Action] = []
        actions.append(Action(kind: .mkdirLocal, path: .root, reason: ""))
        var huge = Action(
            kind: .download, path: path("a/" + everyByteName), bytes: .max, offset: .max,
            source: SnapshotEntry(
                path: path("a/" + everyByteName), kind: .file, size: .max,
                modified: FileTime(seconds: -1e300, granularity: .day), digest: String(repeating: "f", count: 32),
                rawName: Array(0...255)),
            reason: "because 🙂\n\t\u{0}")
        huge.resolution = .keepBoth
        huge.record = FileRecord(
            path: path("a/" + everyByteName), remoteSize: .max,
            remoteModified: FileTime(seconds: 1e300, granularity: .minute), localSize: .max,
            localModified: FileTime(seconds: 0.000_000_001, granularity: .exact), digest: "")
        huge.seen = FileIdentity(size: .max, mtimeNanoseconds: .min, inode: .max, device: .max)
        actions.append(huge)
        var renamed = Action(
            kind: .renameRemote, path: path(String(repeating: "n", count: 4_000)),
            to: path("x/" + String(repeating: "é", count: 2_000)), reason: "moved")
        renamed.record = FileRecord(
            path: renamed.path, remoteSize: nil, remoteModified: nil, localSize: 0,
            localModified: FileTime(seconds: -0.5, granularity: .second), digest: nil)
        actions.append(renamed)
        var empty = Action(
            kind: .upload, path: path("z"), bytes: 0, offset: 0,
            source: SnapshotEntry(path: path("z"), kind: .file, rawName: []), reason: "new")
        empty.seen = FileIdentity(size: 0, mtimeNanoseconds: 0, inode: 0, device: 0)
        actions.append(empty)
        for (index, kind) in ActionKind.allCases.enumerated() {
            let entryKinds: [EntryKind] = [.file, .directory, .symlink, .other]
            let resolutions: [ConflictResolution?] = [nil, .keepBoth, .localWins, .remoteWins, .report]
            let granularities: [TimeGranularity] = [.day, .minute, .second, .exact]
            var action = Action(
                kind: kind, path: path("k/\(index)"), bytes: UInt64(index),
                source: SnapshotEntry(
                    path: path("k/\(index)"), kind: entryKinds[index % 4],
                    modified: FileTime(seconds: Double(index), granularity: granularities[index % 4])),
                reason: kind.rawValue)
            action.resolution = resolutions[index % 5]
            actions.append(action)
        }
        return actions
    }()

    static func encoded(_ action: Action) -> [UInt8] {
        var bytes: [UInt8] = []
        ActionCoding.encode(action, into: &bytes)
        return bytes
    }

    @Test(arguments: odd)
    func everyFieldComesBack(action: Action) throws {
        let bytes = Self.encoded(action)
        #expect(try ActionCoding.decode(bytes[...]) == action)
        #expect(bytes.count <= ActionCoding.maxEncodedSize)
    }

    /// An action cut anywhere is `damaged`, never another action or a trap.
    @Test func everyCutIsDamaged() {
        let bytes = Self.encoded(Self.odd[1])
        for length in 0..<bytes.count {
            #expect(throws: SpoolError.self) { try ActionCoding.decode(bytes[..<length]) }
        }
    }

    /// Any byte changed gives a valid action or `damaged`: nothing out of place traps.
    @Test func changedBytesAreAnErrorOrAnAction() {
        let bytes = Self.encoded(Self.odd[1])
        for index in stride(from: 0, to: bytes.count, by: 7) {
            for value: UInt8 in [0, 0x2F, 0x7F, 0xFF] {
                var changed = bytes
                changed[index] = value
                // `decode` throws only `SpoolError` (typed); reaching the next line is the test.
                _ = try? ActionCoding.decode(changed[...])
            }
        }
    }

    /// (what is wrong, the bytes): each is `damaged`.
    @Test(
        arguments: [
            ("unknown kind", [200, 0, 0, 0, 0, 0]),
            ("unknown flags", [0, 0x80, 0, 0, 0, 0]),
            ("text longer than the bytes", [0, 0, 0xFF, 0xFF, 0xFF, 0xFF]),
            ("a path that is not UTF-8", [0, 0, 2, 0, 0, 0, 0xC3, 0x28]),
            ("a path with ..", [0, 0, 4, 0, 0, 0, 0x61, 0x2F, 0x2E, 0x2E]),
        ] as [(String, [UInt8])])
    func badBytesAreDamaged(what: String, bytes: [UInt8]) {
        #expect(throws: SpoolError.self, "\(what)") { try ActionCoding.decode(bytes[...]) }
    }

    @Test func bytesAfterTheActionAreDamaged() {
        #expect(throws: SpoolError.damaged(reason: "bytes after the action")) {
            try ActionCoding.decode((Self.encoded(Self.odd[0]) + [0])[...])
        }
    }
}
