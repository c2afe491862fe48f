import FTPClient
import Foundation
import LocalTree
import SyncCore

/// Proves or refutes the pull planner's move candidates (`MoveCandidate`): does the device's
/// new file hold the same bytes as the local copy of the file that vanished?
///
/// - The server's hash (`HASH`, `XSHA256`, …) of the new file against the same hash of the local
///   file, when the server offers one;
/// - else, or when hashing fails, the sampled ranges of `SampledRanges` (head, middle, tail; a
///   small file whole): REST and RETR each range, the data connection closed as soon as enough
///   bytes arrived (the server's 426 or 226 read, so the control connection stays in step), and
///   compared with the same bytes of the local file.
///
/// Only reads, on the device and here: a dry run checks too, so its plan is the plan a real run
/// makes. A check that cannot be made (REST refused, the file gone) confirms nothing.
struct MoveEvidenceCheck {
    let remote: RemoteFileSystem
    let job: DeviceJob

    /// The evidence for `candidates`, one after the other over `remote`.
    func check(_ candidates: [MoveCandidate]) -> MoveEvidence {
        var evidence = MoveEvidence()
        for candidate in candidates {
            if RunCancellation.isRequested {
                evidence.findings[candidate] = "interrupted"
                continue
            }
            switch check(candidate) {
            case nil: evidence.confirmed.insert(candidate)
            case let why?: evidence.findings[candidate] = why
            }
        }
        return evidence
    }

    /// Nil when `candidate` is proven the same; else why not, one line.
    private func check(_ candidate: MoveCandidate) -> String? {
        let localPath = job.paths.file(candidate.from)
        let file: LocalBytes
        do {
            file = try LocalBytes(path: localPath)
        } catch {
            return "the local file cannot be read: \(error)"
        }
        guard file.size == candidate.size else { return "the local file changed" }
        let path = remotePath(root: job.remoteRoot, relative: candidate.to.string)
        var hashFailure = ""
        if remote.isConnected {
            do {
                if let hash = try remote.serverHash(path, size: candidate.size) {
                    guard let here = try file.digest(hash.algorithm) else {
                        return "the local \(hash.algorithm.rawValue) could not be computed"
                    }
                    return here == hash.digest ? nil : "the server's \(hash.algorithm.rawValue) differs"
                }
            } catch {
                hashFailure = "server hash: \(error); "
            }
        }
        // Clips of one size and one default time share their container headers and often most
        // of their bytes: a few sampled ranges can match two different clips. Only a hash of
        // the whole file proves such a move; without one the file is downloaded.
        if candidate.defaultTime {
            return
                "\(hashFailure)its time is a default and the server offers no hash (sampled bytes prove nothing here)"
        }
        do {
            for range in SampledRanges.ranges(size: candidate.size) {
                let there = try read(path, range)
                guard there.count == range.count, there == (try file.read(range)) else {
                    return "\(hashFailure)the sampled bytes differ"
                }
            }
            return nil
        } catch {
            return "\(hashFailure)sampled bytes: \(error)"
        }
    }

    /// `range` of the device file at `path` (`RemoteFileSystem.readRange`).
    private func read(_ path: String, _ range: SampledRanges.Range) throws -> [UInt8] {
        try remote.readRange(path, from: range.offset, count: Int(clamping: range.count))
    }
}

/// A local file open for reading by offset (`pread`), a final symlink not followed.
private final class LocalBytes {
    let descriptor: Int32
    let size: UInt64

    init(path: String) throws {
        descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { throw LocalFileError(operation: "open", path: path, code: errno) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw LocalFileError(operation: "fstat", path: path, code: EINVAL)
        }
        size = UInt64(max(0, info.st_size))
    }

    deinit { close(descriptor) }

    /// The bytes of `range` (fewer when the file ends first).
    func read(_ range: SampledRanges.Range) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Int(clamping: range.count))
        var done = 0
        while done < bytes.count {
            let offset = off_t(clamping: range.offset.addingReportingOverflow(UInt64(done)).partialValue)
            let count = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + done, buffer.count - done, offset)
            }
            if count < 0, errno == EINTR { continue }
            if count < 0 { throw LocalFileError(operation: "read", path: "", code: errno) }
            if count == 0 { break }
            done += count
        }
        return Array(bytes.prefix(done))
    }

    /// The digest of the whole file by `algorithm`; nil when it cannot be computed.
    func digest(_ algorithm: ServerHashAlgorithm) throws -> [UInt8]? {
        let hasher = algorithm.makeHasher()
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, $0.count, offset) }
            if count < 0, errno == EINTR { continue }
            if count < 0 { throw LocalFileError(operation: "read", path: "", code: errno) }
            if count == 0 { break }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            offset += off_t(count)
        }
        return hasher.finalize()
    }
}
