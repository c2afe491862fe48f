// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import FTPListing
import Foundation
import SyncEngine

/// An FTP server in memory for the engine's unit tests: a tree of files and folders with
/// modification times, the faults of real devices injected on demand, and counters of what
/// its clients sent. `connect` is the engine's `connect` closure; each call is one control
/// connection (`MemoryRemote`). Thread-safe: a device run's connections share it.
public final class MemoryServer: @unchecked Sendable {
    /// A file: its bytes and modification time (UTC).
    public struct File: Sendable, Equatable {
        public var bytes: [UInt8]
        public var modified: Date
    }

    private let lock = NSLock()
    private var files: [String: File] = [:]
    private var folders: [String: Date] = ["/": Date(timeIntervalSince1970: 1_700_000_000)]
    private var counts: [String: Int] = [:]
    private var listCalls: [String: Int] = [:]
    private var commandNumber = 0
    private var connectionNumber = 0
    private var open = 0
    private var mostOpen = 0

    // MARK: - Faults (set them before or during a run)

    /// The command with this number (1-based, counted over every connection, QUIT aside) loses
    /// its control connection (`FTPError.connectionClosed`); once.
    public var dropAtCommand: Int? {
        get { lock.withLock { dropAt } }
        set { lock.withLock { dropAt = newValue } }
    }
    private var dropAt: Int?
    /// Path → bytes after which the next transfer of that file breaks
    /// (`FTPError.dataConnectionClosed`); each entry is used `times` times (see `cut`).
    private var cuts: [String: (bytes: UInt64, times: Int)] = [:]
    /// Path → bytes a RETR of it sends before it ends as if complete (226), every time.
    private var shorts: [String: UInt64] = [:]
    /// Path → the bytes STOR/APPE keep of what they receive before answering 226 (a server that
    /// drops the tail of an upload), every time.
    private var shortStores: [String: UInt64] = [:]
    /// Verbs the server refuses with 502 (`REST`, `APPE`, `MFMT`, `RNFR`, …).
    public var refused: Set<String> {
        get { lock.withLock { refusedVerbs } }
        set { lock.withLock { refusedVerbs = newValue } }
    }
    private var refusedVerbs: Set<String> = []
    /// Path → what SIZE answers instead of the truth.
    private var lyingSizes: [String: UInt64] = [:]
    /// Folder path → the folder whose entries its listings show from its `after`+1-th LIST on.
    private var aliases: [String: (shows: String, after: Int)] = [:]
    /// Connections (1-based, in connect order) whose every LIST fails with 450.
    public var listFailsOnConnections: Set<Int> {
        get { lock.withLock { failingLists } }
        set { lock.withLock { failingLists = newValue } }
    }
    private var failingLists: Set<Int> = []
    /// Seconds every command waits before it is answered (a slow peer).
    public var delay: Double {
        get { lock.withLock { commandDelay } }
        set { lock.withLock { commandDelay = newValue } }
    }
    private var commandDelay = 0.0
    /// Most control connections open at once; one more is answered 421 at login.
    public var connectionLimit: Int? {
        get { lock.withLock { limit } }
        set { lock.withLock { limit = newValue } }
    }
    private var limit: Int?
    /// Connects (1-based) from this number on fail (`FTPError.connectFailed`): the device went away.
    public var connectsFailFrom: Int? {
        get { lock.withLock { failFrom } }
        set { lock.withLock { failFrom = newValue } }
    }
    private var failFrom: Int?
    /// Whether the server offers a file hash (SHA-256), as `serverHash` answers.
    public var offersHash: Bool {
        get { lock.withLock { hashes } }
        set { lock.withLock { hashes = newValue } }
    }
    private var hashes = false
    /// What the server says of itself (`RemoteFileSystem.identity()`).
    public var identity: ServerIdentity {
        get { lock.withLock { serverIdentity } }
        set { lock.withLock { serverIdentity = newValue } }
    }
    private var serverIdentity = ServerIdentity(
        banner: "220 memory FTP", system: "215 UNIX Type: L8", features: "MDTM MLSD SIZE", certificate: nil)

    public init() {}

    // MARK: - The tree

    /// Puts a file at the absolute `path` (its folders made), modified at `modified`.
    public func put(_ path: String, _ bytes: [UInt8], modified: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        lock.withLock {
            var folder = Self.parent(path)
            while folders[folder] == nil {
                folders[folder] = modified
                folder = Self.parent(folder)
            }
            files[path] = File(bytes: bytes, modified: modified)
        }
    }

    /// The file at `path`, if any.
    public func file(_ path: String) -> File? { lock.withLock { files[path] } }

    /// Every file path, sorted.
    public var filePaths: [String] { lock.withLock { files.keys.sorted() } }

    /// Removes the file at `path`.
    public func remove(_ path: String) { lock.withLock { files[path] = nil } }

    // MARK: - Fault setters

    /// The next `times` transfers of `path` break after `bytes` bytes.
    public func cut(_ path: String, after bytes: UInt64, times: Int = 1) {
        lock.withLock { cuts[path] = (bytes, times) }
    }

    /// Every RETR of `path` ends, as if complete, after `bytes` bytes.
    public func shortRetrieve(_ path: String, bytes: UInt64) { lock.withLock { shorts[path] = bytes } }

    /// Every upload to `path` keeps only its first `bytes` bytes and answers 226.
    public func shortStore(_ path: String, bytes: UInt64) { lock.withLock { shortStores[path] = bytes } }

    /// SIZE of `path` answers `size`.
    public func lieAboutSize(_ path: String, _ size: UInt64) { lock.withLock { lyingSizes[path] = size } }

    /// LIST of `folder` shows the entries of `shows` from its `after`+1-th call on (a listing that
    /// differs on a later call; `after` 0: a folder listed as another one from the start).
    public func alias(_ folder: String, shows: String, after: Int = 0) {
        lock.withLock { aliases[folder] = (shows, after) }
    }

    /// Removes every fault set so far (the tree and the counters stay).
    public func heal() {
        lock.withLock {
            dropAt = nil
            cuts = [:]
            shorts = [:]
            shortStores = [:]
            refusedVerbs = []
            lyingSizes = [:]
            aliases = [:]
            failingLists = []
            commandDelay = 0
            limit = nil
            failFrom = nil
        }
    }

    // MARK: - Counters

    /// Commands received by verb (`LIST`, `RETR`, `STOR`, `APPE`, `REST`, `SIZE`, …).
    public func count(_ verb: String) -> Int { lock.withLock { counts[verb] ?? 0 } }

    /// Connections made (logins that succeeded).
    public var connects: Int { lock.withLock { counts["LOGIN"] ?? 0 } }

    /// Most connections that were open at once.
    public var mostOpenConnections: Int { lock.withLock { mostOpen } }

    // MARK: - Connections

    /// Opens one control connection: the engine's `connect`.
    /// - Throws: `FTPError.connectFailed` from `connectsFailFrom` on; 421 over `connectionLimit`.
    public func connect() throws -> RemoteFileSystem {
        try lock.withLock {
            connectionNumber += 1
            if let failFrom, connectionNumber >= failFrom {
                throw FTPError.connectFailed(host: "memory", port: 21, reason: "connection refused")
            }
            if let limit, open >= limit {
                throw FTPError.reply(code: 421, text: "Too many connections", command: "USER")
            }
            open += 1
            mostOpen = max(mostOpen, open)
            counts["LOGIN", default: 0] += 1
            return MemoryRemote(server: self, number: connectionNumber)
        }
    }

    /// One connection ended (QUIT, or lost).
    func closed() {
        lock.withLock {
            open -= 1
            counts["QUIT", default: 0] += 1
        }
    }

    /// Counts `verb` and applies the command faults.
    /// - Throws: `.connectionClosed` for the dropped command; 502 for a refused verb.
    func command(_ verb: String, on connection: Int) throws {
        let wait: Double = try lock.withLock {
            counts[verb, default: 0] += 1
            commandNumber += 1
            if let dropAt, commandNumber == dropAt {
                self.dropAt = nil
                throw FTPError.connectionClosed
            }
            if refusedVerbs.contains(verb) {
                throw FTPError.reply(code: 502, text: "\(verb) not implemented", command: verb)
            }
            if verb == "LIST", failingLists.contains(connection) {
                throw FTPError.reply(code: 450, text: "busy", command: "LIST")
            }
            return commandDelay
        }
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
    }

    /// The entries of `folder`, as LIST would show them (with the alias faults).
    func listing(_ folder: String) throws -> ParsedListing {
        try lock.withLock {
            listCalls[folder, default: 0] += 1
            var shown = folder
            if let alias = aliases[folder], listCalls[folder, default: 0] > alias.after { shown = alias.shows }
            guard folders[shown] != nil else {
                throw FTPError.reply(code: 550, text: "no such folder", command: "LIST")
            }
            let prefix = shown == "/" ? "/" : shown + "/"
            var entries: [ListingEntry] = []
            for (path, file) in files where Self.parent(path) == shown {
                entries.append(
                    ListingEntry(
                        name: String(path.dropFirst(prefix.count)), type: .file, size: UInt64(file.bytes.count),
                        modified: ListedTime(date: file.modified, precision: .second)))
            }
            for (path, modified) in folders where path != "/" && Self.parent(path) == shown {
                entries.append(
                    ListingEntry(
                        name: String(path.dropFirst(prefix.count)), type: .dir,
                        modified: ListedTime(date: modified, precision: .second)))
            }
            return ParsedListing(entries: entries.sorted { $0.name < $1.name })
        }
    }

    /// Runs `body` on the tree, locked.
    func withTree<T>(_ body: (inout [String: File], inout [String: Date]) throws -> T) rethrows -> T {
        try lock.withLock { try body(&files, &folders) }
    }

    /// The bytes a transfer of `path` may move before it breaks (consuming the cut), and
    /// whether it then ends as complete (a short transfer) rather than broken.
    func transferLimit(_ path: String, storing: Bool) -> (bytes: UInt64, endsComplete: Bool)? {
        lock.withLock {
            if let cut = cuts[path] {
                cuts[path] = cut.times > 1 ? (cut.bytes, cut.times - 1) : nil
                return (cut.bytes, false)
            }
            if let short = (storing ? shortStores : shorts)[path] { return (short, true) }
            return nil
        }
    }

    func sizeAnswer(_ path: String) -> UInt64? { lock.withLock { lyingSizes[path] } }

    /// The folder holding `path` (`/` for a top-level name).
    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
