// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

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
        Self.evidence(for: candidates, cancellation: job.cancellation, check)
    }

    /// The evidence `check` gives of each of `candidates` (nil: proven; else why not), in turn;
    /// once `cancellation` is cancelled, the rest are "interrupted".
    static func evidence(
        for candidates: [MoveCandidate], cancellation: CancellationToken, _ check: (MoveCandidate) -> String?
    ) -> MoveEvidence {
        var evidence = MoveEvidence()
        for candidate in candidates {
            if cancellation.isCancelled {
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
        let file: LocalFileReader
        let size: UInt64
        do {
            file = try LocalFileReader(path: localPath, followingSymlink: false)
            size = try file.regularFileSize()
        } catch {
            return "the local file cannot be read: \(error)"
        }
        guard size == candidate.size else { return "the local file changed" }
        let path = remotePath(root: job.remoteRoot, relative: candidate.to.string)
        var hashFailure = ""
        if remote.isConnected {
            do {
                if let hash = try CopyCheck.serverHashMatches(remote: remote, path: path, size: size, file: file) {
                    return hash.matches ? nil : "the server's \(hash.algorithm) differs"
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
            return try CopyCheck.sampledBytesMatch(remote: remote, path: path, size: size, file: file)
                ? nil : "\(hashFailure)the sampled bytes differ"
        } catch {
            return "\(hashFailure)sampled bytes: \(error)"
        }
    }
}
