// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree

/// The reports of one device's actions, in the order they were appended, in bounded memory: the
/// newest `memoryLimit` are kept in memory, the earlier ones are spooled in their compact form
/// (`ActionReportRecord`) to a scratch file with no name (`ScratchFile`) in `$TMPDIR` (`/tmp`
/// when unset), which is gone when the last copy of the log is. A first pull of a million files
/// thus holds a thousand reports, not a million.
///
/// A value type: a copy appended to spools its own reports (copy on write). Read it as a
/// `Sequence` (every report, in order, read back from the file as it goes), by `count`,
/// `isEmpty`, `first` and the counts by status. When no scratch file can be made or written
/// (a full disk), the reports stay in memory: none is ever lost.
public struct ActionLog: Sequence, Sendable, Encodable {
    /// How many reports a log keeps in memory by default before spooling them.
    public static let defaultMemoryLimit = 1024

    private var storage: Storage

    /// An empty log that keeps at most `memoryLimit` reports in memory (at least 1).
    public init(memoryLimit: Int = ActionLog.defaultMemoryLimit) {
        self.init(memoryLimit: memoryLimit, spoolFolder: Storage.folder)
    }

    /// An empty log spooling to a scratch file in `spoolFolder`.
    init(memoryLimit: Int, spoolFolder: String) {
        storage = Storage(memoryLimit: Swift.max(1, memoryLimit), folder: spoolFolder)
    }

    /// The number of reports.
    public var count: Int { storage.count }

    /// True when the log holds no report.
    public var isEmpty: Bool { storage.count == 0 }

    /// The first report appended; nil when the log is empty.
    public var first: ActionReport? {
        var iterator = makeIterator()
        return iterator.next()
    }

    /// The number of reports with `status`.
    public func count(_ status: ActionStatus) -> Int { storage.statusCounts[status, default: 0] }

    /// How many reports are in memory now (the others are spooled): at most `memoryLimit`
    /// unless the scratch file failed.
    var reportsInMemory: Int { storage.memory.count }

    /// Adds `report` at the end.
    public mutating func append(_ report: ActionReport) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        storage.append(report)
    }

    /// Adds `reports` at the end, in their order.
    public mutating func append<Reports: Sequence>(contentsOf reports: Reports)
    where Reports.Element == ActionReport {
        for report in reports { append(report) }
    }

    /// Reads the reports front to back: the spooled ones from the file, then those in memory.
    public func makeIterator() -> Iterator { Iterator(storage) }

    /// Encodes the reports as an array, one at a time.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        for report in self { try container.encode(report) }
    }

    /// Goes through a log's reports in order; the log it came from does not change meanwhile
    /// (appending to a log being read appends to a copy).
    public struct Iterator: IteratorProtocol {
        private let storage: Storage
        /// The spooled bytes to read: those written when the iterator was made.
        private let spooledEnd: Int
        private var fileOffset = 0
        private var buffer: [UInt8] = []
        private var position = 0
        private var memoryIndex = 0
        private var spoolDone: Bool

        fileprivate init(_ storage: Storage) {
            self.storage = storage
            spooledEnd = storage.spooledBytes
            spoolDone = spooledEnd == 0
        }

        /// The next report; nil after the last.
        public mutating func next() -> ActionReport? {
            while !spoolDone {
                switch ActionReportRecord.read(buffer, at: position) {
                case .report(let report, let next):
                    position = next
                    return report
                case .incomplete:
                    guard fileOffset < spooledEnd, let file = storage.file else {
                        spoolDone = true
                        break
                    }
                    buffer.removeFirst(position)
                    position = 0
                    let chunk =
                        (try? file.read(
                            at: UInt64(fileOffset), count: Swift.min(Storage.chunkBytes, spooledEnd - fileOffset)))
                        ?? []
                    if chunk.isEmpty { spoolDone = true }
                    fileOffset += chunk.count
                    buffer += chunk
                case .damaged:
                    spoolDone = true
                }
            }
            guard memoryIndex < storage.memory.count else { return nil }
            defer { memoryIndex += 1 }
            return storage.memory[memoryIndex]
        }
    }

    /// The reports of one log: the spooled part and the memory part. Changed only through a
    /// log that holds the one reference, read by any number of iterators once shared.
    fileprivate final class Storage: @unchecked Sendable {
        /// Bytes spooled (and read back) at a time.
        static let chunkBytes = 1 << 16
        /// Where scratch files go by default: `$TMPDIR` when it is an absolute path, else `/tmp`.
        static let folder: String = {
            let given = ProcessInfo.processInfo.environment["TMPDIR"] ?? ""
            return given.hasPrefix("/") ? given : "/tmp"
        }()

        let memoryLimit: Int
        /// Where this log's scratch file goes.
        let folder: String
        private(set) var memory: [ActionReport] = []
        private(set) var count = 0
        private(set) var statusCounts: [ActionStatus: Int] = [:]
        /// Bytes of whole records in `file`.
        private(set) var spooledBytes = 0
        private(set) var file: ScratchFile?
        /// Set when the file could not be made or written: the rest stays in memory.
        private var spoolFailed = false

        init(memoryLimit: Int, folder: String) {
            self.memoryLimit = memoryLimit
            self.folder = folder
        }

        func append(_ report: ActionReport) {
            memory.append(report)
            count += 1
            statusCounts[report.status, default: 0] += 1
            if memory.count >= memoryLimit && !spoolFailed { spill() }
        }

        /// A storage of its own with the same reports (read through, spooled anew).
        func copy() -> Storage {
            let copy = Storage(memoryLimit: memoryLimit, folder: folder)
            var iterator = Iterator(self)
            while let report = iterator.next() { copy.append(report) }
            return copy
        }

        /// Moves the reports in memory to the end of the file.
        private func spill() {
            if file == nil { file = ScratchFile.anonymous(in: folder) }
            guard let file else {
                spoolFailed = true
                return
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(Storage.chunkBytes)
            for report in memory { ActionReportRecord.append(report, to: &bytes) }
            // A failed append leaves the file's end where it was: the reports stay in memory.
            guard (try? file.append(bytes)) != nil else {
                spoolFailed = true
                return
            }
            spooledBytes += bytes.count
            memory.removeAll(keepingCapacity: true)
        }
    }
}
