// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// The compact binary form of an `Action` in a plan's spool: every field, the source entry,
/// the record and the local identity included. Integers are little-endian; a string or byte
/// run is a 32-bit length and its bytes; an optional field is announced by a flag bit.
///
/// Reading trusts nothing: every length is checked against what is left, every name is
/// validated as a path again, and anything out of place is `SpoolError.damaged`, never a trap.
enum ActionCoding {
    /// The largest encoded action, in bytes; larger ones are refused when spooled.
    static let maxEncodedSize = 1 << 20

    /// Appends the encoding of `action` to `bytes`.
    static func encode(_ action: Action, into bytes: inout [UInt8]) {
        var writer = ByteWriter(bytes: bytes)
        bytes = []
        writer.byte(UInt8(ActionKind.allCases.firstIndex(of: action.kind) ?? 0))
        writer.flags([
            action.to != nil, action.resolution != nil, action.source != nil, action.record != nil, action.seen != nil,
            action.destination != nil,
        ])
        writer.text(action.path.string)
        if let to = action.to { writer.text(to.string) }
        writer.number(action.bytes)
        writer.number(action.offset)
        writer.text(action.reason)
        if let resolution = action.resolution {
            writer.byte(resolutions.firstIndex(of: resolution).map(UInt8.init) ?? 0)
        }
        if let source = action.source { writer.entry(source) }
        if let record = action.record { writer.record(record) }
        if let seen = action.seen {
            writer.number(seen.size)
            writer.number(UInt64(bitPattern: seen.mtimeNanoseconds))
            writer.number(seen.inode)
            writer.number(seen.device)
        }
        if let destination = action.destination { writer.entry(destination) }
        bytes = writer.bytes
    }

    /// The action encoded in `bytes` (all of them).
    /// - Throws: `SpoolError.damaged` (with `reason`) when they are not one whole valid action.
    static func decode(_ bytes: ArraySlice<UInt8>) throws(SpoolError) -> Action {
        var reader = ByteReader(bytes: bytes)
        let kindIndex = Int(try reader.byte())
        guard kindIndex < ActionKind.allCases.count else { throw reader.damaged("unknown action kind \(kindIndex)") }
        let flags = try reader.byte()
        guard flags < 64 else { throw reader.damaged("unknown flags \(flags)") }
        var action = Action(kind: ActionKind.allCases[kindIndex], path: try reader.path(), reason: "")
        if flags & 1 != 0 { action.to = try reader.path() }
        action.bytes = try reader.number()
        action.offset = try reader.number()
        action.reason = try reader.text()
        if flags & 2 != 0 {
            let index = Int(try reader.byte())
            guard index < resolutions.count else { throw reader.damaged("unknown conflict resolution \(index)") }
            action.resolution = resolutions[index]
        }
        if flags & 4 != 0 { action.source = try reader.entry() }
        if flags & 8 != 0 { action.record = try reader.record() }
        if flags & 16 != 0 {
            action.seen = FileIdentity(
                size: try reader.number(), mtimeNanoseconds: Int64(bitPattern: try reader.number()),
                inode: try reader.number(), device: try reader.number())
        }
        if flags & 32 != 0 { action.destination = try reader.entry() }
        guard reader.isAtEnd else { throw reader.damaged("bytes after the action") }
        return action
    }

    /// Appends the encoding of `adoption` (its two entries) to `bytes`.
    static func encode(_ adoption: Adoption, into bytes: inout [UInt8]) {
        var writer = ByteWriter(bytes: bytes)
        bytes = []
        writer.entry(adoption.remote)
        writer.entry(adoption.local)
        bytes = writer.bytes
    }

    /// The adoption encoded in `bytes` (all of them).
    /// - Throws: `SpoolError.damaged` when they are not one whole valid adoption.
    static func decodeAdoption(_ bytes: ArraySlice<UInt8>) throws(SpoolError) -> Adoption {
        var reader = ByteReader(bytes: bytes)
        let adoption = Adoption(remote: try reader.entry(), local: try reader.entry())
        guard reader.isAtEnd else { throw reader.damaged("bytes after the adoption") }
        return adoption
    }

    /// Appends the encoding of `path` to `bytes`.
    static func encode(_ path: RelativePath, into bytes: inout [UInt8]) {
        var writer = ByteWriter(bytes: bytes)
        bytes = []
        writer.text(path.string)
        bytes = writer.bytes
    }

    /// The path encoded in `bytes` (all of them), validated again.
    /// - Throws: `SpoolError.damaged` when they are not one whole valid path.
    static func decodePath(_ bytes: ArraySlice<UInt8>) throws(SpoolError) -> RelativePath {
        var reader = ByteReader(bytes: bytes)
        let path = try reader.path()
        guard reader.isAtEnd else { throw reader.damaged("bytes after the path") }
        return path
    }

    /// Conflict resolutions by their number in the encoding.
    private static let resolutions: [ConflictResolution] = [.keepBoth, .localWins, .remoteWins, .report]
    /// Entry kinds by their number in the encoding.
    static let entryKinds: [EntryKind] = [.file, .directory, .symlink, .other]
}

/// Appends the fields of an encoded action.
private struct ByteWriter {
    var bytes: [UInt8]

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    /// One byte of up to eight flags, the first the lowest bit.
    mutating func flags(_ values: [Bool]) {
        byte(values.enumerated().reduce(0) { $0 | ($1.element ? 1 << UInt8($1.offset) : 0) })
    }

    mutating func number(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    mutating func run(_ value: some Collection<UInt8>) {
        let count = UInt32(clamping: value.count)
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: count >> shift)) }
        bytes.append(contentsOf: value.prefix(Int(count)))
    }

    mutating func text(_ value: String) { run(value.utf8) }

    mutating func time(_ value: FileTime) {
        number(value.seconds.bitPattern)
        byte(UInt8(clamping: value.granularity.rawValue))
    }

    mutating func entry(_ entry: SnapshotEntry) {
        text(entry.path.string)
        byte(UInt8(ActionCoding.entryKinds.firstIndex(of: entry.kind) ?? 0))
        flags([entry.size != nil, entry.modified != nil, entry.digest != nil, entry.rawName != nil])
        if let size = entry.size { number(size) }
        if let modified = entry.modified { time(modified) }
        if let digest = entry.digest { text(digest) }
        if let raw = entry.rawName { run(raw) }
    }

    mutating func record(_ record: FileRecord) {
        text(record.path.string)
        flags([record.remoteSize != nil, record.remoteModified != nil, record.digest != nil])
        if let size = record.remoteSize { number(size) }
        if let modified = record.remoteModified { time(modified) }
        number(record.localSize)
        time(record.localModified)
        if let digest = record.digest { text(digest) }
    }
}

/// Reads the fields of an encoded action, checking each against the bytes left.
private struct ByteReader {
    let bytes: ArraySlice<UInt8>
    var position: Int

    init(bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    var isAtEnd: Bool { position == bytes.endIndex }

    func damaged(_ reason: String) -> SpoolError { .damaged(reason: reason) }

    mutating func take(_ count: Int) throws(SpoolError) -> ArraySlice<UInt8> {
        guard count >= 0, bytes.endIndex - position >= count else {
            throw damaged("cut short: \(count) bytes wanted, \(bytes.endIndex - position) left")
        }
        defer { position += count }
        return bytes[position..<position + count]
    }

    mutating func byte() throws(SpoolError) -> UInt8 { try take(1).first ?? 0 }

    mutating func number() throws(SpoolError) -> UInt64 {
        try take(8).reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    mutating func run() throws(SpoolError) -> ArraySlice<UInt8> {
        let count = try take(4).reversed().reduce(0) { $0 << 8 | Int($1) }
        return try take(count)
    }

    mutating func text() throws(SpoolError) -> String {
        guard let text = String(validating: try run(), as: UTF8.self) else { throw damaged("text that is not UTF-8") }
        return text
    }

    mutating func path() throws(SpoolError) -> RelativePath {
        let text = try text()
        do {
            return try RelativePath(validating: text)
        } catch {
            throw damaged("an invalid path: \(error)")
        }
    }

    mutating func time() throws(SpoolError) -> FileTime {
        let seconds = Double(bitPattern: try number())
        let raw = Int(try byte())
        guard let granularity = TimeGranularity(rawValue: raw) else { throw damaged("unknown time granularity \(raw)") }
        return FileTime(seconds: seconds, granularity: granularity)
    }

    mutating func entry() throws(SpoolError) -> SnapshotEntry {
        let path = try path()
        let kindIndex = Int(try byte())
        guard kindIndex < ActionCoding.entryKinds.count else { throw damaged("unknown entry kind \(kindIndex)") }
        let flags = try byte()
        guard flags < 16 else { throw damaged("unknown entry flags \(flags)") }
        var entry = SnapshotEntry(path: path, kind: ActionCoding.entryKinds[kindIndex])
        if flags & 1 != 0 { entry.size = try number() }
        if flags & 2 != 0 { entry.modified = try time() }
        if flags & 4 != 0 { entry.digest = try text() }
        if flags & 8 != 0 { entry.rawName = Array(try run()) }
        return entry
    }

    mutating func record() throws(SpoolError) -> FileRecord {
        let path = try path()
        let flags = try byte()
        guard flags < 8 else { throw damaged("unknown record flags \(flags)") }
        let remoteSize = flags & 1 != 0 ? try number() : nil
        let remoteModified = flags & 2 != 0 ? try time() : nil
        let localSize = try number()
        let localModified = try time()
        let digest = flags & 4 != 0 ? try text() : nil
        return FileRecord(
            path: path, remoteSize: remoteSize, remoteModified: remoteModified, localSize: localSize,
            localModified: localModified, digest: digest)
    }
}
