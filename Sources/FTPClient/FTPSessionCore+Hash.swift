extension FTPSessionCore {
    /// The server's digest of the whole file at `path`: `HASH` (draft-bryan-ftpext-hash §3.2)
    /// with the strongest algorithm offered (chosen first with `OPTS HASH` when it is not the
    /// default), else — or when `HASH` is refused — the strongest of `XSHA256`, `XSHA1`, `XMD5`,
    /// `XCRC` (not for a path with a space, which those commands may read as a range).
    /// - Parameter size: the file's size as listed, when known: a `HASH` reply whose range
    ///   (`0-N`, N the size or the last byte) does not cover it is not taken.
    /// - Returns: nil when the server offers no way to hash this file.
    /// - Throws: `.reply` when the server refuses (550 no such file) or answers without a
    ///   digest of the algorithm asked for (the control connection stays usable);
    ///   `.timedOut`, `.connectionClosed` (a server slow to hash a large file).
    func serverHash(_ path: String, size: UInt64? = nil) throws(FTPError) -> ServerHash? {
        try guarded { () throws(FTPError) -> ServerHash? in
            let legacy = path.contains(" ") ? nil : features.legacyHashAlgorithms.first
            if let algorithm = try chooseHashAlgorithm() {
                do throws(FTPError) {
                    return try hash(path, algorithm, size: size)
                } catch .reply(let code, let text, let command) {
                    // Refused (a server may deny HASH and allow the older commands): try those.
                    guard legacy != nil else { throw .reply(code: code, text: text, command: command) }
                }
            }
            guard let legacy else { return nil }
            return try legacyHash(path, legacy)
        }
    }

    /// `HASH path`, `algorithm` chosen already: its digest.
    /// - Throws: `.reply` when refused or answered without a digest of `algorithm`.
    private func hash(_ path: String, _ algorithm: ServerHashAlgorithm, size: UInt64?) throws(FTPError) -> ServerHash {
        let shown = "HASH \(path)"
        let reply = try expect(exchange("HASH", path), shown, 213)
        guard let digest = Self.digest(inHashReply: reply, algorithm: algorithm, size: size) else {
            throw .reply(
                code: reply.code, text: "no \(algorithm.rawValue) digest in the reply: " + reply.text, command: shown)
        }
        return ServerHash(algorithm: algorithm, digest: digest)
    }

    /// `XSHA256 path` (or `XSHA1`, `XMD5`, `XCRC` for `algorithm`): its digest.
    /// - Throws: `.reply` when refused or answered without a digest of `algorithm`.
    private func legacyHash(_ path: String, _ algorithm: ServerHashAlgorithm) throws(FTPError) -> ServerHash {
        let shown = "\(algorithm.legacyCommand) \(path)"
        let reply = try expect(exchange(algorithm.legacyCommand, path), shown, 250, 213, 251)
        guard let digest = Self.digest(inLegacyReply: reply, algorithm: algorithm) else {
            throw .reply(
                code: reply.code, text: "no \(algorithm.rawValue) digest in the reply: " + reply.text, command: shown)
        }
        return ServerHash(algorithm: algorithm, digest: digest)
    }

    /// The algorithm `HASH` will use: the strongest offered, chosen by `OPTS HASH` unless it is
    /// the default; the default when `OPTS HASH` is refused; nil without `HASH`.
    private func chooseHashAlgorithm() throws(FTPError) -> ServerHashAlgorithm? {
        guard let best = features.hashAlgorithms.first else { return nil }
        let fallback = features.defaultHashAlgorithm
        if best == fallback { return best }
        let reply = try exchange("OPTS HASH \(best.rawValue)")
        if reply.code == 200 { return best }
        return fallback
    }

    /// The digest in a reply to `HASH`: its last line is `ALGORITHM START-END HEX NAME`
    /// (draft-bryan-ftpext-hash §3.2); nil unless the algorithm is `algorithm`, the range
    /// starts at 0 and (when `size` is given) ends at `size` or `size - 1`.
    static func digest(inHashReply reply: FTPReply, algorithm: ServerHashAlgorithm, size: UInt64?) -> [UInt8]? {
        guard let last = reply.textLines.last else { return nil }
        let words = last.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true)
        guard words.count >= 3, words[0].uppercased() == algorithm.rawValue else { return nil }
        let bounds = words[1].split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, bounds[0] == "0", let end = UInt64(bounds[1]) else { return nil }
        if let size, end != size, size == 0 || end != size - 1 { return nil }
        return algorithm.digest(fromHex: words[2])
    }

    /// The digest in a reply to `XSHA256`, `XSHA1`, `XMD5` or `XCRC`: the first word of the last
    /// line that is hex of the algorithm's length (servers add the name, or not).
    static func digest(inLegacyReply reply: FTPReply, algorithm: ServerHashAlgorithm) -> [UInt8]? {
        guard let last = reply.textLines.last else { return nil }
        let words = last.split(separator: " ")
        // A short CRC32 (leading zeros dropped) only as the line's one word: not a word of text.
        for word in words where words.count == 1 || word.count == algorithm.digestLength * 2 {
            if let digest = algorithm.digest(fromHex: word) { return digest }
        }
        return nil
    }
}
