// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension TreeFolder {
    /// Moves the file `name` here to `newName` in `folder`: `renameat` when both are on one
    /// file system; across file systems (EXDEV) a copy that never leaves a named file in the
    /// user's tree: into a temporary in `staging` (a folder under `.ftpsync/`) when that is on
    /// the destination's file system, renamed into place; otherwise into a file with no name in
    /// the destination folder (`O_TMPFILE`) that is linked in when whole. A kill during the
    /// copy leaves nothing, or a temporary under `.ftpsync/` that `sweepStaging` removes. The
    /// copy keeps the modification time; the source is removed once the copy is in place.
    /// - Parameter replace: whether `newName` may already exist (it is replaced atomically);
    ///   false fails with EEXIST when it does.
    /// - Returns: true when renamed (same inode), false when copied (a new inode).
    /// - Throws: `LocalFileError` when the rename or the copy fails (nothing is then left
    ///   behind), or EXDEV when neither way of copying is open (no staging folder on that file
    ///   system and no `O_TMPFILE`).
    @discardableResult
    public func move(_ name: String, to folder: TreeFolder, as newName: String, replace: Bool, staging: TreeFolder?)
        throws(LocalFileError) -> Bool
    {
        do {
            try rename(name, to: folder, as: newName, replace: replace)
            return true
        } catch  where error.code == EXDEV {
            try copyAcross(name, to: folder, as: newName, replace: replace, staging: staging)
            try removeFile(name)
            return false
        }
    }

    /// The copy half of `move` across file systems.
    private func copyAcross(
        _ name: String, to folder: TreeFolder, as newName: String, replace: Bool, staging: TreeFolder?
    )
        throws(LocalFileError)
    {
        let source = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        if source < 0 { throw LocalFileError.current("open", shown(name)) }
        defer { FilePlatform.close(source) }
        var info = stat()
        if fstat(source, &info) != 0 { throw LocalFileError.current("fstat", shown(name)) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw LocalFileError(
                operation: "move", path: shown(name), code: EXDEV, detail: "only files are copied across file systems")
        }
        let target = try folder.fileSystem()
        if let staging, try staging.fileSystem() == target {
            let temporary = "copy-\(getpid())-\(TreeFolder.nextCopy())"
            let fd = openat(staging.descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd < 0 { throw LocalFileError.current("open", staging.shown(temporary)) }
            do {
                try TreeFolder.copy(
                    from: source, to: fd, modified: FilePlatform.modified(info), shown: staging.shown(temporary))
                FilePlatform.close(fd)
                try staging.rename(temporary, to: folder, as: newName, replace: replace)
            } catch {
                FilePlatform.close(fd)
                _ = try? staging.removeFile(temporary)
                throw error
            }
            return
        }
        guard let writer = PartialFileWriter.anonymous(in: folder, name: newName) else {
            throw LocalFileError(
                operation: "move", path: "\(shown(name)) -> \(folder.shown(newName))", code: EXDEV,
                detail: "another file system, with no temporary file possible there (no O_TMPFILE)")
        }
        defer { try? writer.close(sync: false) }
        try TreeFolder.copy(
            from: source, to: writer.descriptor, modified: FilePlatform.modified(info), shown: folder.shown(newName))
        try folder.place(writer, as: newName, replace: replace)
    }

    /// Gives the anonymous file of `writer` (made in this folder) the name `name`: `linkat`
    /// when the name is free; with `replace`, a link under a temporary name here shaped like an
    /// upload's temporary (never synced, swept as a leftover) and `renameat` over `name`.
    /// - Throws: `LocalFileError`: EEXIST when `name` is taken and `replace` is false.
    public func place(_ writer: PartialFileWriter, as name: String, replace: Bool) throws(LocalFileError) {
        do {
            try link(descriptor: writer.descriptor, as: name)
            return
        } catch  where error.code == EEXIST && replace {}
        let temporary = TreeFolder.temporaryName()
        _ = try? removeFile(temporary)
        try link(descriptor: writer.descriptor, as: temporary)
        do {
            try rename(temporary, to: self, as: name, replace: true)
        } catch {
            _ = try? removeFile(temporary)
            throw error
        }
    }

    /// Copies everything from `source` to `target`, sets the modification time, then `fsync`.
    private static func copy(from source: Int32, to target: Int32, modified: timespec, shown: String)
        throws(LocalFileError)
    {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw LocalFileError.current("read", shown)
            }
            if count == 0 { break }
            var done = 0
            while done < count {
                let written = buffer.withUnsafeBytes { write(target, $0.baseAddress! + done, count - done) }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw LocalFileError.current("write", shown)
                }
                done += written
            }
        }
        var times = [timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2), modified]
        if futimens(target, &times) != 0 { throw LocalFileError.current("futimens", shown) }
        if fsync(target) != 0 { throw LocalFileError.current("fsync", shown) }
    }

    /// Removes the copies other processes left in `staging` (a killed run's; this process's own,
    /// `copy-<pid>-…`, may be in progress on another device's thread). Run only under the
    /// tree's lock. Returns how many were removed.
    @discardableResult
    public static func sweepStaging(_ staging: TreeFolder) -> Int {
        let names = (try? staging.names()) ?? []
        let own = "copy-\(getpid())-"
        return names.filter { $0.hasPrefix("copy-") && !$0.hasPrefix(own) }.reduce(0) {
            $0 + ((try? staging.removeFile($1)) == true ? 1 : 0)
        }
    }

    /// A name for a file ftpsync puts in the user's tree for an instant (just before renaming
    /// it over a name): `.ftpsync-link-<pid>-<n>.ftpsync-part`, unique in this process, short,
    /// and a leftover by `LocalScanner.isLeftover` (never synced; pull trashes it).
    public static func temporaryName() -> String {
        LocalScanner.linkPrefix + "\(getpid())-\(nextCopy())" + UploadNaming.suffix
    }

    /// A number unique within this process, for temporary names.
    private static func nextCopy() -> Int {
        counterLock.lock()
        defer { counterLock.unlock() }
        counter += 1
        return counter
    }

    nonisolated(unsafe) private static var counter = 0
    private static let counterLock = NSLock()
}
