import FTPClient
import FTPListing
import Foundation
import SyncCore

/// The upload's temporary on the device is not what was sent: it is not renamed into place.
public enum UploadCheckError: Error, CustomStringConvertible {
    /// The temporary holds `held` bytes, the file has `expected`.
    case wrongSize(path: String, held: UInt64, expected: UInt64)
    /// Bytes read back from the temporary differ from the local file near `offset`.
    case differs(path: String, offset: UInt64)
    /// The server's digest of the temporary (by `algorithm`) is not the local file's.
    case hashDiffers(path: String, algorithm: String)
    /// After an attempt whose end the server did not confirm, the temporary kept growing.
    case stillWriting(temporary: String, size: UInt64)

    public var description: String {
        switch self {
        case .wrongSize(let path, let held, let expected):
            return "\(path): the device holds \(held) of \(expected) bytes after the upload; "
                + "not renamed into place, the next run sends it again"
        case .differs(let path, let offset):
            return "\(path): the bytes on the device differ from the local file near byte \(offset); "
                + "not renamed into place, the next run sends it again"
        case .hashDiffers(let path, let algorithm):
            return "\(path): the device's \(algorithm) of the upload differs from the local file's; "
                + "not renamed into place, the next run sends it again"
        case .stillWriting(let temporary, let size):
            return "\(temporary): the device is still writing an earlier attempt (\(size) bytes and growing); "
                + "the next run continues"
        }
    }
}

extension UploadCheckError {
    /// True for `.stillWriting`: nothing was found wrong yet, the device is still busy.
    var isStillWriting: Bool {
        if case .stillWriting = self { return true }
        return false
    }
}

extension PushExecutor {
    /// Bytes compared on each side of a resume point, and at the end.
    static let verifiedSpan: UInt64 = 4096

    /// Checks the temporary before RNTO (issue 13 item 7): its size (SIZE, else the folder's
    /// listing) must be the file's size, and where the upload was resumed or retried, the bytes
    /// at its head, middle and end and on both sides of each resume point must equal the local
    /// file's (REST + short RETR). When the server offers a file hash (HASH, XSHA256, ...), its
    /// digest of the temporary must equal the local file's, and then no bytes are read back.
    /// A check the server cannot answer is skipped; one that fails throws.
    /// - Parameters:
    ///   - folder: the absolute remote folder holding the temporary, `name` its name.
    ///   - descriptor: the open local file.
    /// - Throws: `UploadCheckError.wrongSize` or `.differs`.
    func verifyTemporary(
        _ temporary: String, folder: String, name: String, path: RelativePath, size: UInt64, descriptor: Int32,
        resumedAt: [UInt64]
    ) throws {
        let held = (try? remote.size(temporary)) ?? listedSize(of: name, in: folder)
        if let held, held != size {
            throw UploadCheckError.wrongSize(path: path.string, held: held, expected: size)
        }
        if let hash = try? remote.serverHash(temporary, size: size),
            let local = Self.digest(of: descriptor, hash.algorithm)
        {
            if local != hash.digest {
                throw UploadCheckError.hashDiffers(path: path.string, algorithm: hash.algorithm.rawValue)
            }
            return
        }
        guard !resumedAt.isEmpty else { return }
        let points = resumedAt.filter { $0 > 0 && $0 < size }
        let span = Self.verifiedSpan
        let ranges =
            UploadIntent.sampleRanges(size: size, length: span)
            + points.map { point in
                (point > span ? point - span : 0)..<(size - point > span ? point + span : size)
            }
        if SampledBytes.compare(remote: remote, remotePath: temporary, local: descriptor, ranges: ranges)
            == .mismatched
        {
            throw UploadCheckError.differs(path: path.string, offset: points.first ?? 0)
        }
    }

    /// `verifyTemporary` of the upload of `path` (the local file at `local`) to `temporary`.
    func verifyTemporary(_ temporary: String, path: RelativePath, size: UInt64, local: String, resumedAt: [UInt64])
        throws
    {
        let reader = try LocalFileReader(path: local)
        try verifyTemporary(
            temporary, folder: remotePath(root: job.remoteRoot, relative: path.parent.string),
            name: UploadNaming.temporaryName(for: path.name), path: path, size: size, descriptor: reader.descriptor,
            resumedAt: resumedAt)
    }

    /// The digest of the open local file by `algorithm`; nil when it cannot be read.
    private static func digest(of descriptor: Int32, _ algorithm: ServerHashAlgorithm) -> [UInt8]? {
        let hasher = algorithm.makeHasher()
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            if count < 0, errno == EINTR { continue }
            if count < 0 { return nil }
            if count == 0 { break }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            offset += off_t(count)
        }
        return hasher.finalize()
    }

    /// The exact size the folder's listing gives `name`, if it lists it.
    private func listedSize(of name: String, in folder: String) -> UInt64? {
        guard let listing = try? remote.list(folder) else { return nil }
        let entry = listing.entries.first { $0.name == name && $0.type == .file }
        guard let entry, entry.sizeIsExact else { return nil }
        return entry.size
    }
}
