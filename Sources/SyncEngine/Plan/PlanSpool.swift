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
/// Each action is one frame: its encoded length (32 bits, little-endian) and `ActionCoding`'s
/// bytes. Used from one thread at a time.
final class PlanSpool: PlanWriter {
    /// Bytes kept in memory per section before they go to its file, and read at once.
    static let bufferSize = 64 * 1024
    /// The folder of a device's spool below the state folder `.ftpsync`.
    static func folder(device: String) -> String { "spool/" + device }

    private let files: [ScratchFile]
    private var pending: [[UInt8]]
    /// Actions appended so far.
    private(set) var count = 0
    /// Downloads and uploads among them.
    private(set) var transfers = 0
    /// Bytes those transfers move over the network (resumed ones from their offset).
    private(set) var bytesToTransfer: UInt64 = 0

    /// A spool in `folder`: one scratch file per section, named `prefix` and the section.
    /// - Throws: `LocalFileError` when a file cannot be made.
    private init(in folder: TreeFolder, prefix: String) throws(LocalFileError) {
        var files: [ScratchFile] = []
        for section in PlanSection.allCases { files.append(try ScratchFile(in: folder, name: prefix + "\(section)")) }
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
        let length = frame.count - 4
        guard length <= ActionCoding.maxEncodedSize else {
            throw SpoolError.actionTooLarge(path: action.path.string, bytes: length)
        }
        for index in 0..<4 { frame[index] = UInt8(truncatingIfNeeded: length >> (8 * index)) }
        pending[section.rawValue].append(contentsOf: frame)
        if pending[section.rawValue].count >= Self.bufferSize { try write(section.rawValue) }
        count += 1
        if TransferScheduler.isTransfer(action) {
            transfers += 1
            bytesToTransfer = Saturating.add(bytesToTransfer, action.bytes)
        }
    }

    /// A stream of every action appended so far, in section order, each section in the order
    /// added; each call starts again from the first.
    /// - Throws: `LocalFileError` when what waits in memory cannot be written out.
    func actions() throws(LocalFileError) -> Reader {
        for index in files.indices { try write(index) }
        return Reader(files: files)
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

    /// Reads a spool's actions back one at a time, holding at most `bufferSize` bytes more
    /// than the largest action.
    struct Reader {
        private let files: [ScratchFile]
        private var section = 0
        /// Where `buffer` starts in the current section's file.
        private var fileOffset: UInt64 = 0
        private var buffer: [UInt8] = []
        private var position = 0

        /// A reader of the frames in `files`, one file per section in section order.
        init(files: [ScratchFile]) {
            self.files = files
        }

        /// The next action; nil after the last one.
        /// - Throws: `SpoolError.damaged` when a frame is cut short, too long or not a valid
        ///   action; `LocalFileError` when a file cannot be read.
        mutating func next() throws -> Action? {
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
                    throw SpoolError.damaged(reason: "an action of \(length) bytes at \(here)")
                }
                guard try fill(4 + length) else {
                    throw SpoolError.damaged(reason: "the action at \(here) is cut short")
                }
                let frame = buffer[position + 4..<position + 4 + length]
                position += 4 + length
                return try ActionCoding.decode(frame)
            }
            return nil
        }

        /// Where the reader is, for messages.
        private var here: String {
            "byte \(Saturating.add(fileOffset, UInt64(position))) of the \(PlanSection.allCases[section]) section"
        }

        /// Makes `count` bytes available from `position`, reading on in the section's file;
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
                throw SpoolError.damaged(reason: "the action at \(here) is cut short")
            }
            return true
        }
    }
}
