// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree
import SyncCore

/// A device's plan on disk while it is made and carried out: the actions of each section go
/// to a scratch file of their own (`ScratchFile`: no name left on disk, so nothing stays after
/// the run, killed or not) through a bounded write buffer, and come back as a stream
/// (`Reader`) in section order with a bounded read buffer: a plan of any size costs a few
/// hundred KiB of memory. What the run tells before carrying
/// the plan out (counts, bytes to transfer) is counted as actions are appended.
///
/// The pairs found in sync (`adopt`) and the records to drop (`forget`) go to two more scratch
/// files the same way, read back once the plan is accepted (`adoptions()`, `forgotten()`).
///
/// Each action is one frame: its encoded length (32 bits, little-endian) and `ActionCoding`'s
/// bytes (an adoption its two entries, a record to drop its path). Used from one thread at a time.
final class PlanSpool: PlanWriter {
    /// Bytes kept in memory per section before they go to its file, and read at once.
    static let bufferSize = 64 * 1024
    /// The folder of a device's spool below the state folder `.ftpsync`.
    static func folder(device: String) -> String { "spool/" + device }

    /// The scratch files: one per section, then the adoptions', then the records to drop.
    private let files: [ScratchFile]
    private var pending: [[UInt8]]
    private static let adoptionFile = PlanSection.allCases.count
    private static let forgottenFile = PlanSection.allCases.count + 1
    /// Actions appended so far.
    private(set) var count = 0
    /// Adoptions and records to drop kept so far.
    private(set) var adoptionCount = 0
    private(set) var forgottenCount = 0
    /// Downloads and uploads among them.
    private(set) var transfers = 0
    /// Bytes those transfers move over the network (resumed ones from their offset).
    private(set) var bytesToTransfer: UInt64 = 0

    /// A spool in `folder`: one scratch file per section, named `prefix` and the section.
    /// - Throws: `LocalFileError` when a file cannot be made.
    private init(in folder: TreeFolder, prefix: String) throws(LocalFileError) {
        var files: [ScratchFile] = []
        for section in PlanSection.allCases { files.append(try ScratchFile(in: folder, name: prefix + "\(section)")) }
        files.append(try ScratchFile(in: folder, name: prefix + "adoptions"))
        files.append(try ScratchFile(in: folder, name: prefix + "forgotten"))
        self.files = files
        pending = Array(repeating: [], count: files.count)
    }

    /// A spool of `device` in `.ftpsync/spool/<device>` below the tree's root `treeRoot`
    /// (made when missing), reached without following a symlink below the root. Whatever a
    /// killed run left there is removed first: the run lock keeps the folder to one run.
    /// - Throws: `LocalFileError` when the folder cannot be made or emptied, or a file made.
    static func open(treeRoot: String, device: String) throws(LocalFileError) -> PlanSpool {
        let folder = try TreeFolder.openRoot(treeRoot, create: true).folder(
            LocalScanner.stateFolderName + "/" + Self.folder(device: device), create: true)
        for name in try folder.names() { try folder.removeFile(name) }
        return try PlanSpool(in: folder, prefix: "")
    }

    /// A spool of `device` in the system's temporary folder, for a dry run: nothing is made or
    /// removed in the tree.
    /// - Throws: `LocalFileError` when a file cannot be made there.
    static func scratch(device: String) throws(LocalFileError) -> PlanSpool {
        let folder = try TreeFolder.openRoot(NSTemporaryDirectory(), create: false)
        return try PlanSpool(in: folder, prefix: "ftpsync-\(ProcessInfo.processInfo.processIdentifier)-\(device)-")
    }

    /// Adds `action` at the end of `section`.
    /// - Throws: `SpoolError.actionTooLarge`; `LocalFileError` when the file cannot take it
    ///   (a full disk).
    func append(_ action: Action, to section: PlanSection) throws {
        var frame: [UInt8] = [0, 0, 0, 0]
        ActionCoding.encode(action, into: &frame)
        try add(frame, to: section.rawValue, path: action.path)
        count += 1
        if TransferScheduler.isTransfer(action) {
            transfers += 1
            bytesToTransfer = Saturating.add(bytesToTransfer, action.bytes)
        }
    }

    /// Keeps `adoption` for `adoptions()`.
    /// - Throws: as `append`.
    func adopt(_ adoption: Adoption) throws {
        var frame: [UInt8] = [0, 0, 0, 0]
        ActionCoding.encode(adoption, into: &frame)
        try add(frame, to: Self.adoptionFile, path: adoption.remote.path)
        adoptionCount += 1
    }

    /// Keeps `path` for `forgotten()`.
    /// - Throws: as `append`.
    func forget(_ path: RelativePath) throws {
        var frame: [UInt8] = [0, 0, 0, 0]
        ActionCoding.encode(path, into: &frame)
        try add(frame, to: Self.forgottenFile, path: path)
        forgottenCount += 1
    }

    /// Adds `frame` (4 bytes left for its length, then the encoding) to file `index`.
    private func add(_ frame: consuming [UInt8], to index: Int, path: RelativePath) throws {
        let length = frame.count - 4
        guard length <= ActionCoding.maxEncodedSize else {
            throw SpoolError.actionTooLarge(path: path.string, bytes: length)
        }
        for byte in 0..<4 { frame[byte] = UInt8(truncatingIfNeeded: length >> (8 * byte)) }
        pending[index].append(contentsOf: frame)
        if pending[index].count >= Self.bufferSize { try write(index) }
    }

    /// A stream of every action appended so far, in section order, each section in the order
    /// added; each call starts again from the first.
    /// - Throws: `LocalFileError` when what waits in memory cannot be written out.
    func actions() throws(LocalFileError) -> Reader<Action> {
        for index in PlanSection.allCases.indices { try write(index) }
        return Reader(
            files: Array(files[..<Self.adoptionFile]), names: PlanSection.allCases.map { "the \($0) section" }
        ) {
            bytes throws(SpoolError) in try ActionCoding.decode(bytes)
        }
    }

    /// A stream of the adoptions kept so far, in the order kept.
    /// - Throws: as `actions()`.
    func adoptions() throws(LocalFileError) -> Reader<Adoption> {
        try write(Self.adoptionFile)
        return Reader(files: [files[Self.adoptionFile]], names: ["the adoptions"]) { bytes throws(SpoolError) in
            try ActionCoding.decodeAdoption(bytes)
        }
    }

    /// A stream of the paths whose records are to be dropped, in the order kept.
    /// - Throws: as `actions()`.
    func forgotten() throws(LocalFileError) -> Reader<RelativePath> {
        try write(Self.forgottenFile)
        return Reader(files: [files[Self.forgottenFile]], names: ["the records to drop"]) { bytes throws(SpoolError) in
            try ActionCoding.decodePath(bytes)
        }
    }

    /// Frees the files (their space goes back at once). The spool cannot be used after.
    func close() {
        for file in files { file.close() }
    }

    private func write(_ index: Int) throws(LocalFileError) {
        guard !pending[index].isEmpty else { return }
        try files[index].append(pending[index])
        pending[index].removeAll(keepingCapacity: true)
    }

    /// Reads a spool's frames back one at a time, holding at most `bufferSize` bytes more
    /// than the largest frame.
    struct Reader<Element> {
        private let files: [ScratchFile]
        private let names: [String]
        private let decode: (ArraySlice<UInt8>) throws(SpoolError) -> Element
        private var section = 0
        /// Where `buffer` starts in the current file.
        private var fileOffset: UInt64 = 0
        private var buffer: [UInt8] = []
        private var position = 0

        /// A reader of the frames in `files` one after the other (`names` says what each
        /// holds, for messages), each frame's bytes given to `decode`.
        init(
            files: [ScratchFile], names: [String], decode: @escaping (ArraySlice<UInt8>) throws(SpoolError) -> Element
        ) {
            self.files = files
            self.names = names
            self.decode = decode
        }

        /// The next element; nil after the last one.
        /// - Throws: `SpoolError.damaged` when a frame is cut short, too long or not valid;
        ///   `LocalFileError` when a file cannot be read.
        mutating func next() throws -> Element? {
            while section < files.count {
                guard try fill(4) else {
                    section += 1
                    fileOffset = 0
                    buffer = []
                    position = 0
                    continue
                }
                let length = buffer[position..<position + 4].reversed().reduce(0) { $0 << 8 | Int($1) }
                guard length <= ActionCoding.maxEncodedSize else {
                    throw SpoolError.damaged(reason: "a frame of \(length) bytes at \(here)")
                }
                guard try fill(4 + length) else {
                    throw SpoolError.damaged(reason: "the frame at \(here) is cut short")
                }
                let frame = buffer[position + 4..<position + 4 + length]
                position += 4 + length
                return try decode(frame)
            }
            return nil
        }

        /// Where the reader is, for messages.
        private var here: String {
            "byte \(Saturating.add(fileOffset, UInt64(position))) of \(names[min(section, names.count - 1)])"
        }

        /// Makes `count` bytes available from `position`, reading on in the current file;
        /// false when it ends at `position` (nothing more there).
        /// - Throws: `SpoolError.damaged` when it ends within those bytes.
        private mutating func fill(_ count: Int) throws -> Bool {
            guard buffer.count - position < count else { return true }
            fileOffset = Saturating.add(fileOffset, UInt64(position))
            buffer.removeFirst(position)
            position = 0
            let wanted = max(count - buffer.count, PlanSpool.bufferSize)
            let more = try files[section].read(
                at: Saturating.add(fileOffset, UInt64(buffer.count)), count: wanted)
            buffer.append(contentsOf: more)
            if buffer.isEmpty { return false }
            guard buffer.count >= count else {
                throw SpoolError.damaged(reason: "the frame at \(here) is cut short")
            }
            return true
        }
    }
}
