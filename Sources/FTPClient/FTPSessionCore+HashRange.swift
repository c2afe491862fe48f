// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// Digests of part of a file (a partial download's bytes, an upload's temporary so far), and
/// the probe for `HASH` on servers whose FEAT does not name it.
extension FTPSessionCore {
    /// The server's digest of the bytes `range` of the file at `path`: the older command of the
    /// algorithm chosen (`XSHA256 path START END`, END the byte after the range, as ProFTPD's
    /// mod_digest reads it; not for a path with a space), else `RANG START LAST` and `HASH`
    /// (draft-bryan-ftpext-hash §3.4; a reply for another range is not taken, and the range is
    /// then reset with `RANG 1 0` so it cannot reach a later transfer).
    /// - Returns: nil when the server offers no way to hash a part of this file.
    /// - Throws: `.reply` when the server refuses; `.timedOut`, `.connectionClosed`.
    func serverHash(_ path: String, range: Range<UInt64>) throws(FTPError) -> ServerHash? {
        guard !range.isEmpty else { return nil }
        return try guarded { () throws(FTPError) -> ServerHash? in
            hashAnswer = nil
            try probeHashIfNeeded()
            let wanted = expectedHashAlgorithm
            if !path.contains(" "),
                let legacy = features.legacyHashAlgorithms.first(where: { $0 == wanted })
                    ?? features.legacyHashAlgorithms.first
            {
                let shown = "\(legacy.legacyCommand) \(path) \(range.lowerBound) \(range.upperBound)"
                let reply = try exchange(
                    legacy.legacyCommand, path + " \(range.lowerBound) \(range.upperBound)", shown: shown,
                    seconds: hashSeconds(range.upperBound - range.lowerBound))
                guard [250, 213, 251].contains(reply.code) else { throw replyError(reply, shown) }
                guard let digest = Self.digest(inLegacyReply: reply, algorithm: legacy) else { return nil }
                return ServerHash(algorithm: legacy, digest: digest)
            }
            guard features.has("RANG"), !rangeHashIgnored, let algorithm = try chooseHashAlgorithm() else {
                return nil
            }
            let rang = "RANG \(range.lowerBound) \(range.upperBound - 1)"
            guard try exchange(rang).code == 350 else { return nil }
            let reply = try exchange("HASH", path, seconds: hashSeconds(range.upperBound - range.lowerBound))
            if reply.code == 213,
                let digest = Self.digest(inHashReply: reply, algorithm: algorithm, range: range)
            {
                return ServerHash(algorithm: algorithm, digest: digest)
            }
            // Not the range asked for (a server that hashes the whole file whatever RANG said):
            // its RANG may still be waiting for the next transfer.
            rangeHashIgnored = true
            _ = try exchange("RANG 1 0")
            guard reply.code == 213 else { throw replyError(reply, "HASH \(path)") }
            return nil
        }
    }

    /// Asks once per session, when FEAT names no way to hash a file and
    /// `configuration.probesHash` is set, whether the server has `HASH` anyway: `OPTS HASH`
    /// answered 200 with an algorithm ftpsync knows makes it offered (that algorithm only). A
    /// probe an earlier run made (`hashProbe` set by `FTPSession.rememberHashProbe`) is used
    /// instead of asking again.
    /// - Throws: connection errors only.
    func probeHashIfNeeded() throws(FTPError) {
        guard configuration.probesHash, !features.offersFileHash else { return }
        if let known = hashProbe {
            if known.hasPrefix(Self.probedHashPrefix) {
                features.entries["HASH"] = [String(known.dropFirst(Self.probedHashPrefix.count)) + "*"]
            }
            return
        }
        let reply = try exchange("OPTS HASH")
        let named = reply.text.trimmingSpaces().uppercased()
        if reply.code == 200, let algorithm = ServerHashAlgorithm(rawValue: named) {
            hashProbe = Self.probedHashPrefix + algorithm.rawValue
            features.entries["HASH"] = [algorithm.rawValue + "*"]
        } else {
            hashProbe = "none (FEAT names none; OPTS HASH answered \(reply.code))"
        }
    }

    /// How a probe that found `HASH` is written (`hashProbe`): this, then the algorithm.
    static let probedHashPrefix = "HASH "
}
