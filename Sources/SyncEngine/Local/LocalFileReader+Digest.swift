// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation
import LocalTree

extension LocalFileReader {
    /// The digest of the whole file by `algorithm` (a server's hash to compare with); nil when
    /// the algorithm cannot be computed here.
    /// - Throws: `LocalFileError` when the file cannot be read.
    func digest(_ algorithm: ServerHashAlgorithm) throws(LocalFileError) -> [UInt8]? {
        let hasher = algorithm.makeHasher()
        try forEachChunk { hasher.update($0) }
        return hasher.finalize()
    }
}
