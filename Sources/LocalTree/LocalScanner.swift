// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Scans a local folder recursively with `lstat` semantics: symlinks are reported as links and
/// never followed, excluded paths are skipped, and the top-level `.ftpsync` folder (ftpsync's
/// own files) is always left out.
public struct LocalScanner: Sendable {
    /// The name of ftpsync's own folder at the top of a local tree; never scanned.
    public static let stateFolderName = ".ftpsync"

    /// Paths to leave out.
    public var excludes: FilterRules
    /// Threads used to hash files (at least 1).
    public var hashThreads: Int
    /// Leave out a `.ftpsync` folder at the top of the scanned root: true when the root is a
    /// local tree's root; false for a device's folder below it, where such a name is user data.
    public var skipsStateFolder: Bool

    /// Makes a scanner.
    /// - Parameters:
    ///   - excludes: paths to leave out (see `FilterRules`).
    ///   - hashThreads: threads that hash files in parallel during `scan(root:cache:cachePrefix:)`.
    ///   - skipsStateFolder: leave out `.ftpsync` at the top of the root.
    public init(excludes: FilterRules = .none, hashThreads: Int = 2, skipsStateFolder: Bool = true) {
        self.excludes = excludes
        self.hashThreads = max(1, hashThreads)
        self.skipsStateFolder = skipsStateFolder
    }

    /// Scans `root` without hashing: digests are nil.
    /// - Throws: `LocalFileError` when `root` cannot be opened as a folder (missing, not a
    ///   folder, no permission). Problems below the root become notes.
    public func scan(root: String) throws(LocalFileError) -> LocalScan {
        let walk = try walk(root: root)
        var scan = LocalScan(
            snapshot: Snapshot(walk.entries, unknown: Set(walk.unreadable.keys)), identities: walk.identityTable(),
            notes: walk.notes, unreadable: walk.unreadable)
        scan.leftovers = walk.leftovers
        scan.snapshot.leftOut = walk.leftOut
        scan.skipped = walk.skipped
        return scan
    }

    /// Scans one folder of `root` without descending: the entries directly in `folder` (the
    /// same, with the same notes, skipped names, leftovers and identities, as `scan(root:)`
    /// finds there), without digests. A subfolder is only an entry here: its own content is
    /// its own scan's, and so is the note when it cannot be read.
    /// - Parameters:
    ///   - root: the scanned tree's root (absolute or relative to the working directory).
    ///   - folder: the folder to read, relative to `root`.
    /// - Throws: `LocalFileError` when `root` cannot be opened as a folder. A `folder` below
    ///   it that cannot be read (or is no folder any more) is no error: the scan holds no entry,
    ///   a note, and the folder as `unreadable` (its content is unknown).
    public func scan(root: String, folder: RelativePath) throws(LocalFileError) -> LocalScan {
        var walk = Walk(root: root, recursive: false)
        if folder.isRoot {
            walk = try self.walk(root: root, recursive: false)
        } else {
            switch readFolder(walk.fullPath(folder)) {
            case .success(let listing): visit(listing, in: folder, walk: &walk)
            case .failure(let error): walk.unreadableFolder(folder, error)
            }
        }
        var scan = LocalScan(
            snapshot: walk.compact.snapshot.finish(unknown: Set(walk.unreadable.keys)),
            identities: walk.compact.identities.finish(), notes: walk.notes, unreadable: walk.unreadable)
        scan.leftovers = walk.leftovers
        scan.snapshot.leftOut = walk.leftOut
        scan.skipped = walk.skipped
        return scan
    }

    /// Scans `root` and gives every file its XXH3-128 digest: taken from `cache` when the file's
    /// size, mtime and inode are unchanged, read and hashed otherwise (on `hashThreads` threads).
    ///
    /// Afterwards `cache` holds the digests of every file seen, under the key
    /// `cachePrefix + "/" + relative path` (the relative path alone when `cachePrefix` is ""),
    /// and forgets keys under `cachePrefix` that the scan no longer saw.
    /// - Parameters:
    ///   - root: the folder to scan (absolute or relative to the working directory).
    ///   - cache: remembered digests, updated in place.
    ///   - cachePrefix: the scanned folder relative to the state root, so several device folders
    ///     can share one cache, e.g. `front-camera`; "" when `root` is the state root.
    ///   - needsDigest: called once with the walked entries; a file it then answers false for
    ///     is not hashed now when the cache has no digest for it (its digest stays nil, its cache
    ///     entry is kept). Default: every file is hashed.
    /// - Throws: `LocalFileError` when `root` cannot be opened as a folder. Files that cannot be
    ///   read keep a nil digest and get a note.
    public func scan(
        root: String, cache: inout HashCache, cachePrefix: String = "",
        needsDigest: ([SnapshotEntry]) -> (SnapshotEntry) -> Bool = { _ in { _ in true } }
    ) throws(LocalFileError) -> LocalScan {
        var walk = try walk(root: root)
        let identities = walk.identities
        let hashed = digest(
            &walk.entries, identities: { identities[$0] }, root: root, cache: &cache,
            cachePrefix: cachePrefix, needsDigest: needsDigest(walk.entries), notes: &walk.notes)
        cache.removeAll(under: cachePrefix, except: hashed.seen)
        var scan = LocalScan(
            snapshot: Snapshot(walk.entries, unknown: Set(walk.unreadable.keys)), identities: walk.identityTable(),
            notes: walk.notes, hashedFiles: hashed.files, hashedBytes: hashed.bytes, cachedFiles: hashed.cached,
            unreadable: walk.unreadable)
        scan.leftovers = walk.leftovers
        scan.snapshot.leftOut = walk.leftOut
        scan.skipped = walk.skipped
        return scan
    }

    // MARK: - Walking

    private struct Walk {
        var root: String
        /// Whether the content of each folder met is read too (false: one folder only, its
        /// entries and identities going straight into `compact`).
        var recursive = true
        var entries: [SnapshotEntry] = []
        /// A scan of one folder's entries and identities in compact form, as they are met.
        var compact = (snapshot: Snapshot.Builder(), identities: PathTable<FileIdentity>.Builder())
        /// The identity of `entries[i]` when it is a file (same indices): an array, so the walk
        /// never rehashes a growing dictionary.
        var identities: [FileIdentity?] = []
        var notes: [String] = []
        /// Names that could not be synced (`LocalScan.skipped`).
        var skipped: [SkippedEntry] = []
        /// Files only a killed ftpsync leaves (`LocalScanner.isLeftover`): not entries.
        var leftovers: [RelativePath] = []
        /// Folders (and names) that could not be read, with the cause: their content is unknown.
        var unreadable: [RelativePath: String] = [:]
        /// The paths the filter left out (`Snapshot.leftOut`).
        var leftOut = Set<RelativePath>()

        /// The files' identities by path, in compact form.
        func identityTable() -> PathTable<FileIdentity> {
            PathTable(zip(entries, identities).lazy.compactMap { entry, identity in identity.map { (entry.path, $0) } })
        }

        /// Appends an entry and its identity (nil unless it is a file).
        mutating func append(_ entry: SnapshotEntry, _ identity: FileIdentity? = nil) {
            guard recursive else {
                compact.snapshot.append(entry)
                if let identity { compact.identities.append(entry.path, identity) }
                return
            }
            entries.append(entry)
            identities.append(identity)
        }

        func fullPath(_ path: RelativePath) -> String { LocalScanner.fullPath(path, root: root) }

        /// Notes `folder` as one that could not be read: its content is unknown.
        mutating func unreadableFolder(_ folder: RelativePath, _ error: LocalFileError) {
            notes.append("\(folder): cannot read folder: \(error.cause)")
            unreadable[folder] = error.cause
        }
    }

    /// One name of a folder with what the walk needs of its `lstat` (40 bytes, not the 144 of
    /// a `stat`: a folder of 100,000 names is held whole while it is read).
    private struct Child {
        var name: String
        var type: mode_t
        var size: UInt64
        var mtimeNanoseconds: Int64
        var inode: UInt64
        var device: UInt64

        init(name: String, stat info: stat) {
            self.name = name
            type = info.st_mode & S_IFMT
            size = UInt64(max(0, info.st_size))
            mtimeNanoseconds = nanoseconds(FilePlatform.modified(info))
            inode = UInt64(info.st_ino)
            device = UInt64(info.st_dev)
        }
    }

    private func walk(root: String, recursive: Bool = true) throws(LocalFileError) -> Walk {
        var walk = Walk(root: root, recursive: recursive)
        var info = stat()
        if stat(root, &info) != 0 { throw LocalFileError.current("stat", root) }
        if info.st_mode & S_IFMT != S_IFDIR {
            throw LocalFileError(operation: "scan", path: root, code: ENOTDIR)
        }
        switch readFolder(root) {
        case .success(let listing): visit(listing, in: .root, walk: &walk)
        case .failure(let error): throw error
        }
        return walk
    }

    /// Appends the children of one folder (sorted by name) and, depth first, their contents.
    private func visit(_ listing: Listing, in folder: RelativePath, walk: inout Walk) {
        let prefix = folder.isRoot ? "" : folder.string + "/"
        for problem in listing.problems {
            walk.notes.append(prefix + problem.text)
            // Skipped on purpose (not UTF-8, a normalization twin): not synced. An unexamined
            // name is an unreadable entry instead (`unreadable`).
            if problem.unexamined == nil {
                walk.skipped.append(SkippedEntry(path: prefix + problem.name, reason: problem.reason))
            }
        }
        for problem in listing.problems {
            // A name that is there but cannot be examined may hide anything: unknown, not absent.
            guard let name = problem.unexamined, let path = try? folder.appending(validating: name) else { continue }
            walk.unreadable[path] = problem.text
        }
        for child in listing.children {
            if skipsStateFolder && folder.isRoot && child.name == LocalScanner.stateFolderName { continue }
            let path: RelativePath
            do {
                path = try folder.appending(validating: child.name)
            } catch {
                walk.notes.append("\(prefix)\(child.name): \(error); skipped")
                walk.skipped.append(SkippedEntry(path: prefix + child.name, reason: "\(error)"))
                continue
            }
            let type = child.type
            if type == S_IFREG && LocalScanner.isLeftover(child.name) {
                walk.leftovers.append(path)
                continue
            }
            let isFolder = type == S_IFDIR
            if !excludes.isEmpty && excludes.excludes(path: path.string, isFolder: isFolder) {
                walk.leftOut.insert(path)
                continue
            }
            let mtime = child.mtimeNanoseconds
            let modified = FileTime(seconds: FileIdentity.seconds(nanoseconds: mtime), granularity: .exact)
            switch type {
            case S_IFREG:
                walk.append(
                    SnapshotEntry(path: path, kind: .file, size: child.size, modified: modified),
                    FileIdentity(
                        size: child.size, mtimeNanoseconds: mtime, inode: child.inode, device: child.device))
            case S_IFDIR:
                walk.append(SnapshotEntry(path: path, kind: .directory, modified: modified))
                guard walk.recursive else { continue }
                switch readFolder(walk.fullPath(path)) {
                case .success(let inner): visit(inner, in: path, walk: &walk)
                case .failure(let error): walk.unreadableFolder(path, error)
                }
            case S_IFLNK:
                walk.append(SnapshotEntry(path: path, kind: .symlink, modified: modified))
            default:
                walk.append(SnapshotEntry(path: path, kind: .other, modified: modified))
            }
        }
    }

    private struct Listing {
        var children: [Child] = []
        /// Names that could not be listed, each with the reason.
        var problems: [Problem] = []
    }

    /// A name of a folder that was skipped, and why.
    private struct Problem {
        /// The name as it can be shown (`\xNN` for bytes that are not UTF-8).
        var name: String
        /// Why it was skipped, one line.
        var reason: String
        /// The line for the notes (name and reason).
        var text: String { "\(name): \(reason)" }
        /// The name, when it exists but could not be examined (`lstat` failed): its content is
        /// then unknown. Nil for names skipped on purpose (not UTF-8, a normalization twin).
        var unexamined: String?
    }

    /// Lists one folder: every name except `.` and `..` with its `lstat`, sorted by Unicode
    /// scalars (the order of `RelativePath`). Names that are not valid UTF-8, that cannot be
    /// `lstat`ed, or that equal another name once Unicode-normalized become problems.
    private func readFolder(_ path: String) -> Result<Listing, LocalFileError> {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0 { return .failure(.current("open", path)) }
        guard let dir = fdopendir(fd) else {
            let error = LocalFileError.current("opendir", path)
            close(fd)
            return .failure(error)
        }
        defer { closedir(dir) }
        var listing = Listing()
        var names = Set<String>()
        while true {
            errno = 0
            guard let entry = readdir(dir) else {
                if errno != 0 { return .failure(.current("readdir", path)) }
                break
            }
            var problem: Problem?
            let decoded: String? = withUnsafePointer(to: &entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: 256) { name -> String? in
                    if name[0] == 0x2E && (name[1] == 0 || (name[1] == 0x2E && name[2] == 0)) { return nil }
                    guard let text = String(validatingCString: name) else {
                        problem = Problem(name: LocalScanner.escaped(name), reason: "name is not valid UTF-8; skipped")
                        return nil
                    }
                    return text
                }
            }
            if let problem { listing.problems.append(problem) }
            guard let name = decoded else { continue }
            var info = stat()
            if fstatat(dirfd(dir), name, &info, AT_SYMLINK_NOFOLLOW) != 0 {
                if errno == ENOENT { continue }  // removed since readdir
                listing.problems.append(
                    Problem(
                        name: name, reason: "lstat: \(String(cString: strerror(errno))); skipped", unexamined: name))
                continue
            }
            if !names.insert(name).inserted {
                listing.problems.append(
                    Problem(
                        name: name, reason: "same name as another entry in a different Unicode normalization; skipped"))
                continue
            }
            listing.children.append(Child(name: name, stat: info))
        }
        listing.children.sort { $0.name.unicodeScalars.lexicographicallyPrecedes($1.name.unicodeScalars) }
        return .success(listing)
    }

    /// The bytes of a C name with non-UTF-8 bytes shown as `\xNN`.
    static func escaped(_ name: UnsafePointer<CChar>) -> String {
        var text = ""
        var index = 0
        while name[index] != 0 {
            let byte = UInt8(bitPattern: name[index])
            if byte >= 0x20 && byte < 0x7F {
                text.append(Character(Unicode.Scalar(byte)))
            } else {
                text += "\\x" + String(byte, radix: 16, uppercase: false).leftPadded(to: 2)
            }
            index += 1
        }
        return text
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
