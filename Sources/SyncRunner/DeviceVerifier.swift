// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import LocalTree
import SyncCore

/// What a server answered when asked for the digest of one file.
public enum ServerDigestAnswer: Sendable, Equatable {
    /// The server's digest of the whole file.
    case digest(ServerHash)
    /// The file is not on the device (the reply, for the detail).
    case missing(String)
    /// The server cannot or will not hash this file (why, one line).
    case unavailable(String)
    /// The device file is no longer the size recorded (now this many bytes): it changed.
    case sizeChanged(UInt64)
}

/// Why `ftpsync verify` could not verify a device (or stopped before its last file).
public enum VerifyFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The device's own settings cannot work (`DeviceConfig.problem`).
    case configuration(String)
    /// It could not connect or log in (the error, one line).
    case connection(String)
    /// The server offers no hash command, even when asked with `OPTS HASH`.
    case noHashCommand
    /// The connection failed while verifying `path`; `unchecked` files (that one included)
    /// were not verified.
    case interrupted(path: RelativePath, reason: String, unchecked: Int)

    /// One line.
    public var description: String {
        switch self {
        case .configuration(let problem): return "configuration: " + problem
        case .connection(let error): return error
        case .noHashCommand:
            return "the server offers no hash command (HASH, XSHA256, XSHA1, XMD5, XCRC): nothing to verify against"
        case .interrupted(let path, let reason, let unchecked):
            return "stopped at \(path): \(reason); \(unchecked) file\(unchecked == 1 ? "" : "s") not verified"
        }
    }
}

/// What `ftpsync verify` found for one device.
public struct DeviceVerification: Sendable {
    /// Every file verified, in path order (those that match included).
    public var files: [FileVerdict] = []
    /// The algorithm compared: the server's (`SHA-256`, …), or `XXH3` when checked locally;
    /// nil when nothing was compared.
    public var algorithm: String?
    /// Why the device could not be verified, or stopped early; nil when every file was.
    public var failure: VerifyFailure?

    /// Nothing found yet.
    public init(files: [FileVerdict] = [], algorithm: String? = nil, failure: VerifyFailure? = nil) {
        self.files = files
        self.algorithm = algorithm
        self.failure = failure
    }

    /// The files whose status is `status`.
    public func count(_ status: FileVerdict.Status) -> Int { files.count(where: { $0.status == status }) }

    /// True when a file differs or is missing on either side, or the device failed.
    public var hasProblem: Bool {
        failure != nil || files.contains { $0.status != .ok && $0.status != .unverifiable }
    }
}

/// Verifies the recorded files of one device, one at a time in path order: each local file is
/// read once (its XXH3 and, when the server gave a digest, the server's algorithm over the
/// same bytes) and judged by `VerifyJudge`. Changes nothing, on either side.
public struct DeviceVerifier {
    /// Asks the server for the digest of the device file at a record's path.
    /// - Throws: connection errors: the device's verification stops there.
    public typealias ServerDigests = (_ path: RelativePath) throws -> ServerDigestAnswer

    /// The device's local folder (`DeviceConfig.localPath`).
    public let localRoot: String
    /// The server's digests; nil to compare with the recorded XXH3 digests only (`--local`).
    public let serverDigests: ServerDigests?

    /// A verifier of the files under `localRoot`, against `serverDigests` (nil: locally).
    public init(localRoot: String, serverDigests: ServerDigests?) {
        self.localRoot = localRoot
        self.serverDigests = serverDigests
    }

    /// Verifies `records` in path order.
    /// - Returns: a verdict per file; `failure` set (and the rest left out) when the server's
    ///   digests stopped coming (a connection error).
    public func verify(_ records: [FileRecord]) -> DeviceVerification {
        var result = DeviceVerification(algorithm: serverDigests == nil ? "XXH3" : nil)
        let sorted = records.sorted { $0.path < $1.path }
        for (index, record) in sorted.enumerated() {
            do {
                result.files.append(try verify(record))
            } catch {
                result.failure = .interrupted(path: record.path, reason: "\(error)", unchecked: sorted.count - index)
                break
            }
        }
        return result
    }

    /// Verifies one record: the local file against the server's digest of the device file, or
    /// against the recorded XXH3 digest when checked locally or when the device no longer holds
    /// the file (`offloaded`).
    /// - Throws: what `serverDigests` throws.
    public func verify(_ record: FileRecord) throws -> FileVerdict {
        let path = record.path.isRoot ? localRoot : localRoot + "/" + record.path.string
        let status: LocalFileStatus?
        do {
            status = try LocalFileSystem().status(at: path)
        } catch {
            return FileVerdict(path: record.path, status: .unverifiable, detail: "cannot read it here: \(error)")
        }
        guard let status else {
            return FileVerdict(
                path: record.path, status: .missingLocal, changed: .local, detail: "gone from here")
        }
        guard status.kind == .file else {
            let what = status.kind == .directory ? "a folder" : status.kind == .symlink ? "a symlink" : "not a file"
            return FileVerdict(
                path: record.path, status: .differs, changed: .local, detail: "\(what) is here now, not the file")
        }
        guard let serverDigests, !record.offloaded else {
            return local(record, path: path, status: status) { VerifyJudge.judgeLocally(record, local: $0) }
        }
        switch try serverDigests(record.path) {
        case .missing(let reply):
            return FileVerdict(
                path: record.path, status: .missingRemote, changed: .device, detail: "not on the device (\(reply))")
        case .unavailable(let why):
            return FileVerdict(path: record.path, status: .unverifiable, detail: why)
        case .sizeChanged(let now):
            let was = record.remoteSize.map { "\($0)" } ?? "another size"
            return FileVerdict(
                path: record.path, status: .differs, changed: .device,
                detail: "the device file is \(now) bytes now, \(was) when it was last transferred: it changed")
        case .digest(let hash):
            return local(record, path: path, status: status, by: hash.algorithm) {
                VerifyJudge.judge(record, local: $0, server: hash)
            }
        }
    }

    /// Reads the file at `path` once (XXH3, and `algorithm` when given) and judges it with `judge`;
    /// `unverifiable` when it cannot be read.
    private func local(
        _ record: FileRecord, path: String, status: LocalFileStatus, by algorithm: ServerHashAlgorithm? = nil,
        _ judge: (LocalFileDigests) -> FileVerdict
    ) -> FileVerdict {
        do {
            let reader = try LocalFileReader(path: path, followingSymlink: false)
            let xxh3 = try XXH3Hasher()
            let hasher = algorithm?.makeHasher()
            try reader.forEachChunk { chunk in
                xxh3.update(chunk)
                hasher?.update(chunk)
            }
            var digests = LocalFileDigests(
                size: status.identity.size, modified: status.identity.modified, xxh3: xxh3.finalize())
            if let algorithm, let digest = hasher?.finalize() {
                digests.server = ServerHash(algorithm: algorithm, digest: digest)
            }
            return judge(digests)
        } catch {
            return FileVerdict(path: record.path, status: .unverifiable, detail: "cannot read it here: \(error)")
        }
    }
}
