// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One file a scan must read and hash.
struct HashJob: Sendable {
    /// Position of the file in the scan's entry list.
    var index: Int
    var fullPath: String
    /// Key in the hash cache.
    var key: String
    /// What the scan saw; the file must still match it after hashing.
    var identity: FileIdentity
}

/// What hashing one file gave.
enum HashOutcome: Sendable {
    /// The digest, and the bytes read.
    case digest(String, UInt64)
    /// The file changed between the scan and the end of hashing; bytes read.
    case changed(UInt64)
    case failed(LocalFileError)
}

/// Hashes files on a few threads of our own (never in Swift concurrency's pool).
enum FileHashing {
    /// Hashes every job; the outcomes are in the order of `jobs`.
    static func run(_ jobs: [HashJob], threads: Int) -> [HashOutcome] {
        if jobs.isEmpty { return [] }
        let workers = min(max(1, threads), jobs.count)
        if workers == 1 { return jobs.map { hash($0) } }
        let box = LockedSlots<HashOutcome>(count: jobs.count)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = box.take() {
                box.set(index, hash(jobs[index]))
            }
        }
        return box.values.map { $0 ?? .failed(LocalFileError(operation: "hash", path: "", code: 0, detail: "not run")) }
    }

    /// Reads and hashes one file, checking with `fstat` that it is still the file the scan saw.
    static func hash(_ job: HashJob) -> HashOutcome {
        let fd = open(job.fullPath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if fd < 0 { return .failed(.current("open", job.fullPath)) }
        defer { close(fd) }
        do {
            let hasher = try XXH3Hasher()
            let bytes = try hasher.update(fd: fd, path: job.fullPath, length: nil)
            var after = stat()
            if fstat(fd, &after) != 0 { return .failed(.current("fstat", job.fullPath)) }
            let mtime = nanoseconds(FilePlatform.modified(after))
            if UInt64(after.st_ino) != job.identity.inode || mtime != job.identity.mtimeNanoseconds
                || bytes != job.identity.size || UInt64(max(0, after.st_size)) != job.identity.size
            {
                return .changed(bytes)
            }
            return .digest(hasher.finalize(), bytes)
        } catch {
            return .failed(error)
        }
    }
}

/// A digest computed on a thread of its own while the caller does something else with the
/// file (a push hashes a new file while it is being uploaded).
public final class BackgroundDigest: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var outcome: HashOutcome?

    /// Starts hashing the file at `path`, which must still be the file `identity` describes
    /// (inode, size, modification time) when hashing ends.
    public init(path: String, identity: FileIdentity) {
        let job = HashJob(index: 0, fullPath: path, key: "", identity: identity)
        let thread = Thread { [self] in
            outcome = FileHashing.hash(job)
            done.signal()
        }
        thread.name = "ftpsync-hash"
        thread.start()
    }

    /// Waits for the digest: 32 lowercase hex digits of XXH3-128, or nil when the file changed
    /// while it was hashed or could not be read.
    public func wait() -> String? {
        done.wait()
        done.signal()  // a second wait returns at once
        if case .digest(let digest, _)? = outcome { return digest }
        return nil
    }
}
