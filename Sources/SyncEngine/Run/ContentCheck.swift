// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation
import LocalTree
import SyncCore

/// Proves or refutes that a device file and the local file at the same path hold the same bytes
/// (`PlanResult.contentCandidates`: both sides changed to the same size, or no record says
/// which is which): by the server's hash of the whole file when it offers one, else by reading
/// the device's file (RETR) and comparing it with the local one as it arrives, stopping at the
/// first difference. Only reads, on both sides: a dry run checks too, so its plan is the plan a
/// real run makes. A check that cannot be made confirms nothing (the pair stays a conflict).
struct ContentCheck {
    let remote: RemoteFileSystem
    let job: DeviceJob

    /// The evidence for `candidates` (each one path: `from` here, `to` on the device), one after
    /// the other over `remote`.
    func check(_ candidates: [MoveCandidate]) -> MoveEvidence {
        MoveEvidenceCheck.evidence(for: candidates, cancellation: job.cancellation, check)
    }

    /// Nil when the two files are proven the same; else why not, one line.
    private func check(_ candidate: MoveCandidate) -> String? {
        let file: LocalFileReader
        do {
            file = try LocalFileReader(path: job.paths.file(candidate.from), followingSymlink: false)
            guard try file.regularFileSize() == candidate.size else { return "the local file changed meanwhile" }
        } catch {
            return "the local file cannot be read (\(error))"
        }
        let path = remotePath(root: job.remoteRoot, relative: candidate.to.string)
        var hashFailure = ""
        do {
            if let hash = try CopyCheck.serverHashMatches(remote: remote, path: path, size: candidate.size, file: file)
            {
                return hash.matches ? nil : "the content differs (the server's \(hash.algorithm))"
            }
        } catch {
            hashFailure = " (the server's hash failed: \(error))"
        }
        var position: UInt64 = 0
        do {
            _ = try remote.retrieve(path, from: 0) { chunk in
                let here = try file.read(from: position, count: chunk.count)
                guard here.count == chunk.count, here.elementsEqual(chunk) else { throw Differs() }
                position = Saturating.add(position, UInt64(chunk.count))
            }
        } catch is Differs {
            return "the content differs\(hashFailure)"
        } catch {
            return "the content could not be compared: \(error)\(hashFailure)"
        }
        return position == candidate.size ? nil : "the content differs (the device's file is \(position) bytes)"
    }

    /// Thrown by the comparing sink at the first difference: ends the RETR.
    private struct Differs: Error {}
}
