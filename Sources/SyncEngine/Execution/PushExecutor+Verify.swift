import FTPClient
import FTPListing
import Foundation
import LocalTree
import SyncCore

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
    ///   - local: the open local file.
    /// - Throws: `EngineError.uploadWrongSize`, `.uploadHashDiffers` or `.uploadDiffers`.
    func verifyTemporary(
        _ temporary: String, folder: String, name: String, path: RelativePath, size: UInt64,
        local file: LocalFileReader,
        resumedAt: [UInt64]
    ) throws {
        let held = (try? remote.size(temporary)) ?? listedSize(of: name, in: folder)
        if let held, held != size {
            throw EngineError.uploadWrongSize(path: path.string, held: held, expected: size)
        }
        if let hash = try? remote.serverHash(temporary, size: size),
            let local = (try? file.digest(hash.algorithm)) ?? nil
        {
            if local != hash.digest {
                throw EngineError.uploadHashDiffers(path: path.string, algorithm: hash.algorithm.rawValue)
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
        if SampledBytes.compare(remote: remote, remotePath: temporary, local: file, ranges: ranges)
            == .mismatched
        {
            throw EngineError.uploadDiffers(path: path.string, offset: points.first ?? 0)
        }
    }

    /// `verifyTemporary` of the upload of `path` (the local file at `local`) to `temporary`.
    func verifyTemporary(_ temporary: String, path: RelativePath, size: UInt64, local: String, resumedAt: [UInt64])
        throws
    {
        let reader = try LocalFileReader(path: local)
        try verifyTemporary(
            temporary, folder: remotePath(root: job.remoteRoot, relative: path.parent.string),
            name: UploadNaming.temporaryName(for: path.name), path: path, size: size, local: reader,
            resumedAt: resumedAt)
    }

    /// The exact size the folder's listing gives `name`, if it lists it.
    private func listedSize(of name: String, in folder: String) -> UInt64? {
        guard let listing = try? remote.list(folder) else { return nil }
        let entry = listing.entries.first { $0.name == name && $0.type == .file }
        guard let entry, entry.sizeIsExact else { return nil }
        return entry.size
    }
}
