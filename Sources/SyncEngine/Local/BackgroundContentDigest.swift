// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation
import LocalTree

/// The digest of a local file by a server's algorithm (`ServerHashAlgorithm`), computed on a
/// thread of its own while the server hashes its copy, so the two take the time of one.
/// `@unchecked Sendable`: the outcome is written once by the thread before `done` is signalled
/// and read only after waiting for it.
final class BackgroundContentDigest: @unchecked Sendable {
    /// The algorithm being computed.
    let algorithm: ServerHashAlgorithm
    private let done = DispatchSemaphore(value: 0)
    private var outcome: [UInt8]?

    /// Starts hashing the file at `path` by `algorithm`.
    init(path: String, algorithm: ServerHashAlgorithm) {
        self.algorithm = algorithm
        let thread = Thread { [self] in
            outcome = (try? LocalFileReader(path: path).digest(algorithm)) ?? nil
            done.signal()
        }
        thread.name = "ftpsync-digest"
        thread.start()
    }

    /// Waits for the digest; nil when the file could not be read or the algorithm computed.
    func wait() -> [UInt8]? {
        done.wait()
        done.signal()  // a second wait returns at once
        return outcome
    }
}
