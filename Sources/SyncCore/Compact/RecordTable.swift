import Foundation

/// The records of one folder (or any set of records), sorted by path, in compact columns
/// (issue 17): a record costs some 80 bytes and its path's bytes, where a `FileRecord` in a
/// dictionary cost some 500. Looked up by binary search; each record read is made again as a
/// `FileRecord`.
public struct RecordTable: Sendable, RecordLookup, RandomAccessCollection {
    private var paths = PathColumn()
    private var remoteSizes: [UInt64] = []
    private var localSizes: [UInt64] = []
    private var remoteTimes: [Double] = []
    private var localTimes: [Double] = []
    /// Per record: bit 0 a remote size, bit 1 a remote time, bits 2–3 its granularity, bits 4–5
    /// the local time's granularity.
    private var flags: [UInt8] = []
    private var digests = DigestColumn()
    /// Position by path, only when some path is not in NFC (nil: binary search).
    private var index: [RelativePath: Int]?

    /// No records.
    public init() {}

    /// `records` in path order; of two records of one path the last is kept.
    public init(_ records: some Sequence<FileRecord>) {
        var builder = Builder()
        for record in records { builder.append(record) }
        self = builder.finish()
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { flags.count }

    /// The record at `position` (`0..<count`).
    public subscript(position: Int) -> FileRecord {
        let flag = flags[position]
        let remoteGranularity = TimeGranularity(rawValue: Int(flag >> 2 & 3)) ?? .second
        let localGranularity = TimeGranularity(rawValue: Int(flag >> 4 & 3)) ?? .exact
        return FileRecord(
            path: paths[position], remoteSize: flag & 1 != 0 ? remoteSizes[position] : nil,
            remoteModified: flag & 2 != 0
                ? FileTime(seconds: remoteTimes[position], granularity: remoteGranularity) : nil,
            localSize: localSizes[position],
            localModified: FileTime(seconds: localTimes[position], granularity: localGranularity),
            digest: digests[position])
    }

    /// The record of `path`, if any.
    public subscript(_ path: RelativePath) -> FileRecord? {
        position(of: path).map { self[$0] }
    }

    /// Where the record of `path` is, if there is one.
    public func position(of path: RelativePath) -> Int? {
        if let index { return index[path] }
        return paths.search(path.canonical)
    }

    private mutating func add(_ record: FileRecord) {
        paths.append(record.path)
        remoteSizes.append(record.remoteSize ?? 0)
        localSizes.append(record.localSize)
        remoteTimes.append(record.remoteModified?.seconds ?? 0)
        localTimes.append(record.localModified.seconds)
        var flag: UInt8 = record.remoteSize == nil ? 0 : 1
        if let remote = record.remoteModified { flag |= 2 | UInt8(remote.granularity.rawValue & 3) << 2 }
        flag |= UInt8(record.localModified.granularity.rawValue & 3) << 4
        flags.append(flag)
        digests.append(record.digest)
    }

    /// Makes a table from records given one at a time: those in strictly increasing NFC path
    /// order (as the state gives one folder's) go straight into the columns; any other order
    /// is sorted once, at `finish()`.
    public struct Builder {
        private var table = RecordTable()
        private var last: RelativePath?
        private var others: [FileRecord]?

        public init() {}

        /// Adds `record`.
        public mutating func append(_ record: FileRecord) {
            if others != nil { return others!.append(record) }
            if record.path.isNFC, last.map({ $0 < record.path }) ?? true {
                table.add(record)
                last = record.path
                return
            }
            others = Array(table) + [record]
            table = RecordTable()
        }

        /// The table of the records added.
        public consuming func finish() -> RecordTable {
            guard let others else { return table }
            var byPath: [RelativePath: FileRecord] = [:]
            for record in others { byPath[record.path] = record }
            var sorted = RecordTable()
            for record in byPath.values.sorted(by: { $0.path < $1.path }) { sorted.add(record) }
            // The paths kept are the records' own: a path's first spelling is the dictionary's
            // key, its last record's spelling the one kept (NFC then NFD in SQLite's byte order).
            if !byPath.values.allSatisfy(\.path.isNFC) {
                var index: [RelativePath: Int] = [:]
                for position in sorted.indices { index[sorted.paths[position]] = position }
                sorted.index = index
            }
            return sorted
        }
    }
}
