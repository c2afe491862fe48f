// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder of the local tree, held open by descriptor, and the `*at` calls made in it.
///
/// A root (the device's folder, `.ftpsync/`) is opened once by its path, which the user may
/// have configured through symlinks. Every folder below it is reached with `folder(_:create:)`,
/// which opens one component at a time with `O_NOFOLLOW | O_DIRECTORY` (and `mkdirat` when it
/// is missing): a symlink anywhere below the root fails the walk (ELOOP, ENOTDIR) instead of
/// being followed, so nothing done through a `TreeFolder` lands outside its root. Names given
/// to the other calls are single components, never paths. The descriptor closes with the value.
public final class TreeFolder: @unchecked Sendable {
    /// The open folder (`O_RDONLY | O_DIRECTORY`).
    public let descriptor: Int32
    /// The folder's path, for messages only: no call uses it.
    public let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { FilePlatform.close(descriptor) }

    /// Opens the root folder at `path` (symlinks in `path` are followed: it is the user's
    /// configured place), making it and its parents first when `create` is true.
    /// - Throws: `LocalFileError` when the folder cannot be made or opened.
    public static func openRoot(_ path: String, create: Bool) throws(LocalFileError) -> TreeFolder {
        if create { try LocalFileSystem().makeFolders(at: path) }
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0 { throw LocalFileError.current("open", path) }
        return TreeFolder(descriptor: fd, path: path)
    }

    /// The folder at `relative` (`/`-separated components, "" for this folder itself) below
    /// this one, each component opened without following a symlink; missing ones are made
    /// (mode 0777 less the umask) when `create` is true.
    /// - Throws: `LocalFileError`: ENOENT (missing, `create` false), ELOOP/ENOTDIR with the detail
    ///   "a symbolic link is in the way" when a component is a symlink, EINVAL for `.`/`..`/empty
    ///   components, or the cause of a failed `mkdirat`/`openat`.
    public func folder(_ relative: String, create: Bool) throws(LocalFileError) -> TreeFolder {
        var current = self
        var shown = path
        for component in relative.split(separator: "/", omittingEmptySubsequences: true) {
            let name = String(component)
            shown += "/" + name
            if name == "." || name == ".." {
                throw LocalFileError(operation: "open", path: shown, code: EINVAL, detail: "not a folder name")
            }
            current = try current.child(name, shown: shown, create: create)
        }
        return current
    }

    /// Opens (making it when asked) the child folder `name`, never through a symlink.
    private func child(_ name: String, shown: String, create: Bool) throws(LocalFileError) -> TreeFolder {
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        var fd = openat(descriptor, name, flags)
        if fd < 0 && errno == ENOENT && create {
            if mkdirat(descriptor, name, 0o777) != 0 && errno != EEXIST {
                throw LocalFileError.current("mkdir", shown)
            }
            fd = openat(descriptor, name, flags)
        }
        if fd < 0 {
            let code = errno
            if code == ELOOP || code == ENOTDIR, (try? status(name))?.kind == .symlink {
                throw LocalFileError(
                    operation: "open", path: shown, code: code,
                    detail: "a symbolic link is in the way (not followed: nothing is written through it)")
            }
            throw LocalFileError(operation: "open", path: shown, code: code)
        }
        return TreeFolder(descriptor: fd, path: shown)
    }

    /// The path of `name` in this folder, for messages.
    public func shown(_ name: String) -> String { path + "/" + name }

    /// `lstat` of `name` in this folder (`fstatat`, not following a symlink); nil when absent.
    /// - Throws: `LocalFileError` for failures other than ENOENT.
    public func status(_ name: String) throws(LocalFileError) -> LocalFileStatus? {
        var info = stat()
        if fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) != 0 {
            if errno == ENOENT { return nil }
            throw LocalFileError.current("lstat", shown(name))
        }
        return LocalFileStatus(info)
    }

    /// Renames `name` here to `newName` in `folder` (`renameat`). With `replace` false the
    /// rename fails with EEXIST when `newName` is taken (`renameat2(RENAME_NOREPLACE)`; where
    /// the kernel lacks it, a check just before a plain rename).
    /// - Throws: `LocalFileError` (operation "rename"), e.g. EXDEV across file systems.
    public func rename(_ name: String, to folder: TreeFolder, as newName: String, replace: Bool)
        throws(LocalFileError)
    {
        let what = "\(shown(name)) -> \(folder.shown(newName))"
        if !replace {
            if let renameat2 = TreeFolder.renameat2 {
                if renameat2(descriptor, name, folder.descriptor, newName, TreeFolder.renameNoReplace) == 0 { return }
                if errno != ENOSYS && errno != EINVAL { throw LocalFileError.current("rename", what) }
            }
            if try folder.status(newName) != nil { throw LocalFileError(operation: "rename", path: what, code: EEXIST) }
        }
        if renameat(descriptor, name, folder.descriptor, newName) != 0 { throw LocalFileError.current("rename", what) }
    }

    /// Swaps the names `first` and `second` of this folder atomically
    /// (`renameat2(RENAME_EXCHANGE)`): each then names the other's file.
    /// - Returns: false when the kernel or file system cannot exchange (ENOSYS, EINVAL): nothing
    ///   was changed.
    /// - Throws: `LocalFileError` for other failures (e.g. ENOENT when one name is missing).
    public func exchange(_ first: String, _ second: String) throws(LocalFileError) -> Bool {
        guard let renameat2 = TreeFolder.renameat2 else { return false }
        if renameat2(descriptor, first, descriptor, second, TreeFolder.renameExchange) == 0 { return true }
        if errno == ENOSYS || errno == EINVAL { return false }
        throw LocalFileError.current("exchange", "\(shown(first)) <-> \(shown(second))")
    }

    /// Gives the open file `fd` (an `O_TMPFILE` file on this folder's file system) the name
    /// `name` here (`linkat` through `/proc/self/fd`); fails with EEXIST when the name is taken.
    /// - Throws: `LocalFileError` (operation "link").
    public func link(descriptor fd: Int32, as name: String) throws(LocalFileError) {
        if linkat(AT_FDCWD, "/proc/self/fd/\(fd)", descriptor, name, AT_SYMLINK_FOLLOW) != 0 {
            throw LocalFileError.current("link", shown(name))
        }
    }

    /// Removes the file or symlink `name` (`unlinkat`); false when nothing was there.
    /// - Throws: `LocalFileError` for failures other than ENOENT.
    @discardableResult
    public func removeFile(_ name: String) throws(LocalFileError) -> Bool {
        if unlinkat(descriptor, name, 0) != 0 {
            if errno == ENOENT { return false }
            throw LocalFileError.current("unlink", shown(name))
        }
        return true
    }

    /// Removes the empty folder `name` (`unlinkat(AT_REMOVEDIR)`); false when nothing was there.
    /// - Throws: `LocalFileError` when it is not empty or cannot be removed.
    @discardableResult
    public func removeEmptyFolder(_ name: String) throws(LocalFileError) -> Bool {
        if unlinkat(descriptor, name, AT_REMOVEDIR) != 0 {
            if errno == ENOENT { return false }
            throw LocalFileError.current("rmdir", shown(name))
        }
        return true
    }

    /// Makes the names in this folder durable (`fsync` of the folder).
    /// - Throws: `LocalFileError` when `fsync` fails.
    public func sync() throws(LocalFileError) {
        if fsync(descriptor) != 0 && errno != EINVAL { throw LocalFileError.current("fsync", path) }
    }

    /// Opens the file `name` here for writing at `offset` (see `PartialFileWriter`), never
    /// through a symlink.
    /// - Throws: `LocalFileError` as `PartialFileWriter.init(path:offset:)`.
    public func openPartial(_ name: String, offset: UInt64) throws(LocalFileError) -> PartialFileWriter {
        try PartialFileWriter(folder: self, name: name, offset: offset)
    }

    /// The names in this folder (not `.` and `..`), in no particular order; at most `limit`
    /// of them (the rest are not read).
    /// - Throws: `LocalFileError` when the folder cannot be read.
    public func names(limit: Int = .max) throws(LocalFileError) -> [String] {
        let fd = openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0 { throw LocalFileError.current("open", path) }
        guard let dir = fdopendir(fd) else {
            let error = LocalFileError.current("opendir", path)
            FilePlatform.close(fd)
            throw error
        }
        defer { closedir(dir) }
        var names: [String] = []
        while names.count < limit, let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The file system (`st_dev`) this folder is on.
    /// - Throws: `LocalFileError` when `fstat` fails.
    public func fileSystem() throws(LocalFileError) -> UInt64 {
        var info = stat()
        if fstat(descriptor, &info) != 0 { throw LocalFileError.current("fstat", path) }
        return UInt64(info.st_dev)
    }

    /// glibc's `renameat2`, looked up at run time (declared only under `_GNU_SOURCE`).
    private static let renameat2:
        (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32)? = {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
            return unsafeBitCast(
                symbol,
                to: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32)
                    .self)
        }()

    /// `RENAME_NOREPLACE` of `<linux/fs.h>`.
    private static let renameNoReplace: UInt32 = 1
    /// `RENAME_EXCHANGE` of `<linux/fs.h>`.
    private static let renameExchange: UInt32 = 2
}

extension LocalFileStatus {
    /// The status `stat` describes.
    init(_ info: stat) {
        let kind: EntryKind
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .file
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symlink
        default: kind = .other
        }
        self.init(
            kind: kind,
            identity: FileIdentity(
                size: UInt64(max(0, info.st_size)), mtimeNanoseconds: nanoseconds(FilePlatform.modified(info)),
                inode: UInt64(info.st_ino), device: UInt64(info.st_dev)))
        changeNanoseconds = nanoseconds(FilePlatform.changed(info))
    }
}
