// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Everything about local files that differs between Linux and Darwin, in one place: the rest
/// of LocalTree uses POSIX calls both have (`openat`, `fstatat`, `renameat`, `linkat`,
/// `futimens`, …). Features found at run time stay so on both (`renameat2` by `dlsym`,
/// `/proc/self/fd`): where they are missing the callers fall back. The Linux branch is the one
/// built and tested; the Darwin branch is written from the manual pages and has not been built.
enum FilePlatform {
    /// The modification time of a `stat` result (`st_mtim` on Linux, `st_mtimespec` on Darwin).
    static func modified(_ info: stat) -> timespec {
        #if canImport(Glibc)
            info.st_mtim
        #elseif canImport(Darwin)
            info.st_mtimespec
        #endif
    }

    /// The inode change time of a `stat` result (`st_ctim` / `st_ctimespec`).
    static func changed(_ info: stat) -> timespec {
        #if canImport(Glibc)
            info.st_ctim
        #elseif canImport(Darwin)
            info.st_ctimespec
        #endif
    }

    /// The `open(2)` flags of a file with no name in a folder, written to, close-on-exec:
    /// `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`; Glibc's macro is not imported); nil where the
    /// system has none (Darwin), and the callers write a named partial instead.
    static let anonymousFileFlags: Int32? = {
        #if canImport(Glibc)
            O_WRONLY | O_CLOEXEC | O_DIRECTORY | 0o20_000_000
        #elseif canImport(Darwin)
            nil
        #endif
    }()

    /// Tells the system `fd` will be read from start to end (`posix_fadvise` on Linux,
    /// `F_RDAHEAD` on Darwin); a hint, its failure ignored.
    static func adviseSequential(_ fd: Int32) {
        #if canImport(Glibc)
            _ = posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL)
        #elseif canImport(Darwin)
            _ = fcntl(fd, F_RDAHEAD, 1)
        #endif
    }

    /// `close(2)` (callable from types that have a `close()` of their own).
    @discardableResult
    static func close(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.close(fd)
        #elseif canImport(Darwin)
            Darwin.close(fd)
        #endif
    }

    /// `write(2)`. - Returns: the bytes written, or -1 with `errno` set.
    static func write(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(fd, bytes, count)
        #elseif canImport(Darwin)
            Darwin.write(fd, bytes, count)
        #endif
    }
}
