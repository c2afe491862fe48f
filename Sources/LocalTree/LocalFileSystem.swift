// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `lstat` says about one local path.
public struct LocalFileStatus: Sendable, Hashable {
    /// File, folder, symlink (not followed) or other.
    public var kind: EntryKind
    /// Size, mtime (ns), inode and device.
    public var identity: FileIdentity
    /// Inode change time (`st_ctime`) in nanoseconds since 1970-01-01T00:00:00Z: changes with
    /// every write, rename or metadata change, and cannot be set back by a user (0 when unknown).
    public var changeNanoseconds: Int64 = 0

    /// Makes a status from its parts.
    public init(kind: EntryKind, identity: FileIdentity) {
        self.kind = kind
        self.identity = identity
    }
}

/// The engine's seam to the local file system: folders, atomic moves, modification times, the
/// trash, and files written while downloading. Every failure is a `LocalFileError` carrying the
/// path and the cause ("Permission denied", "No space left on device").
public struct LocalFileSystem: Sendable {
    /// Makes the seam (it holds no state).
    public init() {}

    /// `lstat` of `path`; nil when nothing is there.
    /// - Throws: `LocalFileError` for failures other than "No such file or directory".
    public func status(at path: String) throws(LocalFileError) -> LocalFileStatus? {
        var info = stat()
        if lstat(path, &info) != 0 {
            if errno == ENOENT { return nil }
            throw LocalFileError.current("lstat", path)
        }
        return LocalFileStatus(info)
    }

    /// Makes the folder at `path` and any missing parents (mode 0777 less the umask); a folder
    /// already there is fine.
    /// - Throws: `LocalFileError` when a folder cannot be made or a non-folder is in the way.
    public func makeFolders(at path: String) throws(LocalFileError) {
        // Walk up to the deepest folder that exists, then create downwards: no recursion, so a
        // tree thousands of levels deep cannot exhaust a thread's stack.
        var missing: [String] = []
        var current = path
        while !current.isEmpty {
            var info = stat()
            if stat(current, &info) == 0 {
                if info.st_mode & S_IFMT == S_IFDIR { break }
                throw LocalFileError(operation: "mkdir", path: current, code: ENOTDIR)
            }
            missing.append(current)
            let parent = LocalFileSystem.parent(of: current)
            if parent == current { break }
            current = parent
        }
        for folder in missing.reversed() where mkdir(folder, 0o777) != 0 && errno != EEXIST {
            throw LocalFileError.current("mkdir", folder)
        }
    }

    /// Moves `source` to `destination` with `rename(2)`: atomic, replacing what `destination`
    /// held. Across file systems (EXDEV) the file is copied into a file with no name in the
    /// destination's folder (`O_TMPFILE`, see `TreeFolder.move`), linked in when whole, then
    /// the source is removed: the destination appears whole or not at all, and a kill leaves no
    /// named copy in the user's tree.
    /// - Returns: true when `rename(2)` moved it (the same inode, times and size under the new
    ///   name), false when it was copied across file systems (a new inode, the same mtime).
    /// - Throws: `LocalFileError` (operation "rename", path `source -> destination`) on failure;
    ///   EXDEV when the copy is not possible (a folder, no `O_TMPFILE` there).
    @discardableResult
    public func move(from source: String, to destination: String) throws(LocalFileError) -> Bool {
        if rename(source, destination) == 0 { return true }
        let code = errno
        guard code == EXDEV else {
            throw LocalFileError(operation: "rename", path: "\(source) -> \(destination)", code: code)
        }
        func split(_ path: String) -> (folder: String, name: String) {
            let folder = LocalFileSystem.parent(of: path)
            let name = folder.isEmpty ? path : String(path.dropFirst(folder == "/" ? 1 : folder.count + 1))
            return (folder.isEmpty ? "." : folder, name)
        }
        let (sourceFolder, sourceName) = split(source)
        let (targetFolder, targetName) = split(destination)
        let from = try TreeFolder.openRoot(sourceFolder, create: false)
        let to = try TreeFolder.openRoot(targetFolder, create: false)
        return try from.move(sourceName, to: to, as: targetName, replace: true, staging: nil)
    }

    /// Sets the modification time of `path` (not following a symlink) to `time`, to the
    /// nanosecond; the access time is left alone.
    /// - Throws: `LocalFileError` when `utimensat` fails.
    public func setModificationTime(_ time: FileTime, at path: String) throws(LocalFileError) {
        let parts = timespecParts(time.seconds)
        try setTimes(timespec(tv_sec: time_t(parts.seconds), tv_nsec: parts.nanoseconds), at: path)
    }

    /// Sets the modification time of `path` to `nanoseconds` since 1970-01-01T00:00:00Z (UTC).
    /// - Throws: `LocalFileError` when `utimensat` fails.
    public func setModificationTime(nanoseconds: Int64, at path: String) throws(LocalFileError) {
        let (sec, nsec) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        let fixed = nsec < 0 ? (sec - 1, nsec + 1_000_000_000) : (sec, nsec)
        try setTimes(timespec(tv_sec: time_t(fixed.0), tv_nsec: Int(fixed.1)), at: path)
    }

    /// Sets the modification time of `path` (not following a symlink); access time untouched.
    private func setTimes(_ modified: timespec, at path: String) throws(LocalFileError) {
        var times = [timespec(tv_sec: 0, tv_nsec: LocalFileSystem.utimeOmit), modified]
        if utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) != 0 {
            throw LocalFileError.current("utimensat", path)
        }
    }

    /// Removes the file or symlink at `path`; returns false when nothing was there.
    /// - Throws: `LocalFileError` for failures other than "No such file or directory".
    @discardableResult
    public func removeFile(at path: String) throws(LocalFileError) -> Bool {
        if unlink(path) != 0 {
            if errno == ENOENT { return false }
            throw LocalFileError.current("unlink", path)
        }
        return true
    }

    /// Removes the empty folder at `path`; returns false when nothing was there.
    /// - Throws: `LocalFileError` when the folder is not empty or cannot be removed.
    @discardableResult
    public func removeEmptyFolder(at path: String) throws(LocalFileError) -> Bool {
        if rmdir(path) != 0 {
            if errno == ENOENT { return false }
            throw LocalFileError.current("rmdir", path)
        }
        return true
    }

    /// Makes the names in folder `path` durable (`fsync` of the folder), e.g. after a rename.
    /// - Throws: `LocalFileError` when the folder cannot be opened or synced.
    public func syncFolder(at path: String) throws(LocalFileError) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0 { throw LocalFileError.current("open", path) }
        defer { close(fd) }
        if fsync(fd) != 0 && errno != EINVAL { throw LocalFileError.current("fsync", path) }
    }

    /// Makes every write to the file system holding `path` durable at once (`syncfs(2)`): the
    /// bytes, times and names of all files written there since, whoever wrote them.
    /// - Throws: `LocalFileError` when `path` cannot be opened or `syncfs` fails (an I/O error).
    public func syncFileSystem(holding path: String) throws(LocalFileError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw LocalFileError.current("open", path) }
        defer { close(fd) }
        guard let syncfs = LocalFileSystem.syncfs else {
            sync()  // no syncfs in this C library: every file system, which includes this one
            return
        }
        if syncfs(fd) != 0 { throw LocalFileError.current("syncfs", path) }
    }

    /// glibc's `syncfs`, looked up at run time: Swift's Glibc module does not import it (it is
    /// declared only under `_GNU_SOURCE`).
    private static let syncfs: (@convention(c) (Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncfs") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
    }()

    /// Opens the partial download at `path` for writing at `offset` (see `PartialFileWriter`).
    /// - Throws: `LocalFileError` as `PartialFileWriter.init(path:offset:)`.
    public func openPartial(at path: String, offset: UInt64) throws(LocalFileError) -> PartialFileWriter {
        try PartialFileWriter(path: path, offset: offset)
    }

    /// `UTIME_OMIT` of `<sys/stat.h>` (a macro Swift does not import): leave this time alone.
    private static let utimeOmit = (1 << 30) - 2

    /// The parent folder of a `/`-separated path ("" for a bare name, "/" for a top-level one).
    static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        return String(trimmed[..<slash])
    }
}
