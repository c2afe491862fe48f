// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The records of one folder (or any set of records), sorted by path, in compact form
/// (issue 17): a `PathTable` of the records without their paths (some 64 bytes each and the
/// path's bytes, where a `FileRecord` in a dictionary cost some 500). Looked up by binary
/// search; each record read is made again as a `FileRecord`.
public struct RecordTable: Sendable, RecordLookup, RandomAccessCollection {
    /// A record without its path: sizes, times, digest.
    struct Stored: Sendable {
        var remoteSize: UInt64
        var localSize: UInt64
        var remoteTime: Double
        var localTime: Double
        /// Bit 0 a remote size, bit 1 a remote time, bits 2–3 its granularity, bits 4–5 the
        /// local time's granularity, bit 6 `offloaded`.
        var flags: UInt8
        var digest: StoredDigest

        init(_ record: FileRecord) {
            remoteSize = record.remoteSize ?? 0
            localSize = record.localSize
            remoteTime = record.remoteModified?.seconds ?? 0
            localTime = record.localModified.seconds
            flags = record.remoteSize == nil ? 0 : 1
            if let remote = record.remoteModified { flags |= 2 | UInt8(remote.granularity.rawValue & 3) << 2 }
            flags |= UInt8(record.localModified.granularity.rawValue & 3) << 4
            if record.offloaded { flags |= 64 }
            digest = StoredDigest(record.digest)
        }

        func record(at path: RelativePath) -> FileRecord {
            let remoteGranularity = TimeGranularity(rawValue: Int(flags >> 2 & 3)) ?? .second
            let localGranularity = TimeGranularity(rawValue: Int(flags >> 4 & 3)) ?? .exact
            var record = FileRecord(
                path: path, remoteSize: flags & 1 != 0 ? remoteSize : nil,
                remoteModified: flags & 2 != 0 ? FileTime(seconds: remoteTime, granularity: remoteGranularity) : nil,
                localSize: localSize, localModified: FileTime(seconds: localTime, granularity: localGranularity),
                digest: digest.text)
            record.offloaded = flags & 64 != 0
            return record
        }
    }

    private var table: PathTable<Stored>

    /// No records.
    public init() { table = PathTable() }

    /// `records` in path order; of two records of one path the last is kept.
    public init(_ records: some Sequence<FileRecord>) {
        var builder = Builder()
        for record in records { builder.append(record) }
        self = builder.finish()
    }

    private init(table: PathTable<Stored>) { self.table = table }

    public var startIndex: Int { 0 }
    public var endIndex: Int { table.count }

    /// The record at `position` (`0..<count`).
    public subscript(position: Int) -> FileRecord {
        table.value(at: position).record(at: table.path(at: position))
    }

    /// The record of `path`, if any.
    public subscript(_ path: RelativePath) -> FileRecord? {
        table.position(of: path).map { self[$0] }
    }

    /// Makes a table from records given one at a time: those in strictly increasing NFC path
    /// order (as the state gives one folder's) go straight into the table; any other order is
    /// sorted once, at `finish()` (`PathTable.Builder`).
    public struct Builder {
        private var table = PathTable<Stored>.Builder()

        public init() {}

        /// Adds `record`.
        public mutating func append(_ record: FileRecord) { table.append(record.path, Stored(record)) }

        /// The table of the records added.
        public consuming func finish() -> RecordTable { RecordTable(table: table.finish()) }
    }
}
