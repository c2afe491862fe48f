// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree

/// The metrics file could not be written: which file, the failed call and its cause.
struct MetricsFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The metrics file as given (`--metrics-file`, `metrics_file`).
    var path: String
    /// The call that failed and why (`open /srv/metrics/.ftpsync-metrics-…: Permission denied`).
    var cause: LocalFileError

    /// One line: the file, the reason and the fix; the run's exit code does not change.
    var description: String {
        let folder = MetricsFile.split(path).folder
        let fix: String
        if cause.isNotFound {
            fix = "create the folder \(folder)"
        } else if cause.isNoSpace {
            fix = "free space on the file system of \(folder)"
        } else if cause.code == EISDIR || cause.code == ENOTEMPTY || cause.code == EEXIST {
            fix = "\(path) is a folder: give --metrics-file / metrics_file the path of a file"
        } else {
            fix = "make the folder \(folder) writable by this user, or choose another --metrics-file / metrics_file"
        }
        return "ftpsync: cannot write the metrics file \(path): \(cause); \(fix) (the run's exit code is unchanged)"
    }
}

/// Writes the metrics file atomically, so a reader (node_exporter's textfile collector) sees the
/// old file or the new one, never a part: the text goes to a temporary file in the same folder
/// (`.ftpsync-metrics-<pid>-<random>.tmp`, not a `*.prom` name the collector reads), made with
/// `O_CREAT | O_EXCL | O_NOFOLLOW` (no file taken over, no symlink followed), mode 0644 whatever
/// the umask (the collector often runs as another user), written, `fsync`ed and renamed over
/// the file. On any failure the temporary is removed; one a killed run left is removed by the
/// next write.
enum MetricsFile {
    /// Writes `text` as the file at `path` (absolute or relative to the working folder).
    /// - Throws: `MetricsFileError` naming the failed call: the folder missing or not writable,
    ///   a full disk, a folder at `path`.
    static func write(_ text: String, to path: String) throws(MetricsFileError) {
        let (folderPath, name) = split(path)
        do throws(LocalFileError) {
            let folder = try TreeFolder.openRoot(folderPath, create: false)
            sweepLeftovers(in: folder)
            let temporary = prefix + "\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 16)).tmp"
            do throws(LocalFileError) {
                try writeNew(Array(text.utf8), named: temporary, in: folder)
                try folder.rename(temporary, to: folder, as: name, replace: true)
            } catch {
                _ = try? folder.removeFile(temporary)
                throw error
            }
            // The file is in place; a folder that cannot be synced only makes the rename less durable.
            try? folder.sync()
        } catch {
            throw MetricsFileError(path: path, cause: error)
        }
    }

    /// The start of a temporary's name; then `<pid>-<random hex>.tmp`.
    static let prefix = ".ftpsync-metrics-"

    /// Removes the temporaries of processes that are gone (a run killed between making its
    /// temporary and renaming it); those of live processes (another configuration writing its
    /// own file here now) stay. Failures are ignored: the leftovers harm no reader.
    static func sweepLeftovers(in folder: TreeFolder) {
        for name in (try? folder.names()) ?? [] where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let pid = name.dropFirst(prefix.count).prefix { $0 != "-" }
            guard let pid = Int32(pid), pid > 0, pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            _ = try? folder.removeFile(name)
        }
    }

    /// The folder (`.` for a bare name) and the name of the file at `path`.
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    /// Makes the new file `name` in `folder` (mode 0644) holding `bytes`, synced to the disk.
    /// - Throws: `LocalFileError` of the failed `open`, `fchmod`, `write`, `fsync` or `close`.
    private static func writeNew(_ bytes: [UInt8], named name: String, in folder: TreeFolder) throws(LocalFileError) {
        let shown = folder.shown(name)
        let fd = openat(folder.descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw LocalFileError(operation: "open", path: shown, code: errno) }
        var failure: LocalFileError?
        if fchmod(fd, 0o644) != 0 { failure = LocalFileError(operation: "fchmod", path: shown, code: errno) }
        var done = 0
        while failure == nil, done < bytes.count {
            let count = bytes[done...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                failure = LocalFileError(operation: "write", path: shown, code: count < 0 ? errno : EIO)
                break
            }
            done += count
        }
        if failure == nil, fsync(fd) != 0 { failure = LocalFileError(operation: "fsync", path: shown, code: errno) }
        if close(fd) != 0, failure == nil { failure = LocalFileError(operation: "close", path: shown, code: errno) }
        if let failure { throw failure }
    }
}
