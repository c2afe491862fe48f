// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

extension FTPSessionCore {
    /// How a session asks for a file's digest: `HASH` with an algorithm (chosen with `OPTS HASH`
    /// when it is not the server's default), or one of `XSHA256`, `XSHA1`, `XMD5`, `XCRC`.
    enum HashChoice: Equatable {
        case hash(ServerHashAlgorithm)
        case legacy(ServerHashAlgorithm)

        /// The algorithm the digests come in.
        var algorithm: ServerHashAlgorithm {
            switch self {
            case .hash(let algorithm), .legacy(let algorithm): return algorithm
            }
        }

        /// True for one of the older commands.
        var isLegacy: Bool {
            if case .legacy = self { return true }
            return false
        }
    }

    /// The algorithm `serverHash` gives digests in: the one chosen, else the one it will choose
    /// (the strongest `HASH` offers, else the strongest older command); nil when the server
    /// offers none (as far as FEAT and a probe tell).
    var expectedHashAlgorithm: ServerHashAlgorithm? {
        if let hashChoice { return hashChoice.algorithm }
        return features.hashAlgorithms.first ?? features.legacyHashAlgorithms.first
    }

    /// Decides how this session asks for digests (`hashChoice`), once: `HASH` with the
    /// algorithm `chooseHashAlgorithm` picks, else the strongest older command.
    /// - Returns: the algorithm; nil when the server offers none.
    /// - Throws: connection errors.
    func decideHashChoice() throws(FTPError) -> ServerHashAlgorithm? {
        if let hashChoice { return hashChoice.algorithm }
        try probeHashIfNeeded()
        if try chooseHashAlgorithm() == nil, let legacy = features.legacyHashAlgorithms.first {
            hashChoice = .legacy(legacy)
        }
        return hashChoice?.algorithm
    }

    /// The server's digest of the whole file at `path`: `HASH` (draft-bryan-ftpext-hash §3.2)
    /// with the strongest algorithm offered (chosen first with `OPTS HASH` when it is not the
    /// default), else — or when `HASH` is refused — the strongest of `XSHA256`, `XSHA1`, `XMD5`,
    /// `XCRC` (not for a path with a space, which those commands may read as a range). The
    /// answer to a hash command sent ahead behind the file's transfer is taken when there is one.
    /// - Parameter size: the file's size as listed, when known: a `HASH` reply whose range
    ///   (`0-N`, N the size or the last byte) does not cover it is not taken.
    /// - Returns: nil when the server offers no way to hash this file.
    /// - Throws: `.reply` when the server refuses (550 no such file) or answers without a
    ///   digest of the algorithm asked for (the control connection stays usable);
    ///   `.timedOut`, `.connectionClosed` (a server slow to hash a large file).
    func serverHash(_ path: String, size: UInt64? = nil) throws(FTPError) -> ServerHash? {
        if let answer = hashAnswer {
            hashAnswer = nil
            if answer.path == path {
                return try Self.hash(in: answer.reply, answer.choice, answer.choice.algorithm, path: path, size: size)
            }
        }
        return try guarded { () throws(FTPError) -> ServerHash? in
            try probeHashIfNeeded()
            let legacy = path.contains(" ") ? nil : features.legacyHashAlgorithms.first
            if hashChoice?.isLegacy != true, let algorithm = try chooseHashAlgorithm() {
                do throws(FTPError) {
                    return try hash(path, algorithm, size: size)
                } catch .reply(let code, let text, let command) {
                    // Refused (a server may deny HASH and allow the older commands): try those.
                    guard legacy != nil else { throw .reply(code: code, text: text, command: command) }
                }
            }
            guard let legacy else { return nil }
            let digest = try legacyHash(path, legacy, size: size)
            if hashChoice == nil { hashChoice = .legacy(legacy) }
            return digest
        }
    }

    /// The command line that asks for the digest of `path` the way this session decided
    /// (`hashChoice`), for sending ahead; nil when not decided or not possible for this path.
    func hashCommand(for path: String) -> (verb: String, choice: HashChoice)? {
        switch hashChoice {
        case .hash(let algorithm): return ("HASH", .hash(algorithm))
        case .legacy(let algorithm): return path.contains(" ") ? nil : (algorithm.legacyCommand, .legacy(algorithm))
        case nil: return nil
        }
    }

    /// The digest in `reply`, answer to the hash command of `choice` for `path`.
    /// - Throws: `.reply` when the reply refuses or holds no digest of `algorithm`.
    static func hash(
        in reply: FTPReply, _ choice: HashChoice, _ algorithm: ServerHashAlgorithm, path: String, size: UInt64?
    ) throws(FTPError) -> ServerHash {
        let legacy = choice.isLegacy
        let shown = (legacy ? algorithm.legacyCommand : "HASH") + " \(path)"
        guard legacy ? [250, 213, 251].contains(reply.code) : reply.code == 213 else {
            throw .reply(code: reply.code, text: reply.text, command: shown)
        }
        let digest =
            legacy
            ? digest(inLegacyReply: reply, algorithm: algorithm)
            : digest(inHashReply: reply, algorithm: algorithm, range: size.map { 0..<$0 })
        guard let digest else {
            throw .reply(
                code: reply.code, text: "no \(algorithm.rawValue) digest in the reply: " + reply.text, command: shown)
        }
        return ServerHash(algorithm: algorithm, digest: digest)
    }

    /// `HASH path`, `algorithm` chosen already: its digest.
    /// - Throws: `.reply` when refused or answered without a digest of `algorithm`.
    private func hash(_ path: String, _ algorithm: ServerHashAlgorithm, size: UInt64?) throws(FTPError) -> ServerHash {
        try Self.hash(
            in: exchange("HASH", path, seconds: hashSeconds(size)), .hash(algorithm), algorithm, path: path, size: size)
    }

    /// `XSHA256 path` (or `XSHA1`, `XMD5`, `XCRC` for `algorithm`): its digest.
    /// - Throws: `.reply` when refused or answered without a digest of `algorithm`.
    private func legacyHash(_ path: String, _ algorithm: ServerHashAlgorithm, size: UInt64?) throws(FTPError)
        -> ServerHash
    {
        try Self.hash(
            in: exchange(algorithm.legacyCommand, path, seconds: hashSeconds(size)), .legacy(algorithm), algorithm,
            path: path, size: nil)
    }

    /// Bytes per second the slowest device is expected to hash a file at, reading it from its
    /// own storage: the wait for a digest grows with the file's size beyond the timeout.
    static let slowestHashRate = 10_000_000.0

    /// Seconds the reply to a hash of a file of `size` bytes is waited for: the timeout, and
    /// the time the slowest device takes to read that many bytes (`slowestHashRate`).
    func hashSeconds(_ size: UInt64?) -> Double {
        configuration.timeout + Double(size ?? 0) / Self.slowestHashRate
    }

    /// The algorithm `HASH` will use: the strongest offered, chosen by `OPTS HASH` unless it is
    /// the default; the default when `OPTS HASH` is refused; nil without `HASH`. Decided once
    /// per session (`hashChoice`).
    func chooseHashAlgorithm() throws(FTPError) -> ServerHashAlgorithm? {
        if case .hash(let algorithm) = hashChoice { return algorithm }
        guard let best = features.hashAlgorithms.first else { return nil }
        let fallback = features.defaultHashAlgorithm
        var chosen = fallback
        if best == fallback {
            chosen = best
        } else if try exchange("OPTS HASH \(best.rawValue)").code == 200 {
            chosen = best
        }
        hashChoice = chosen.map { .hash($0) } ?? hashChoice
        return chosen
    }

    /// The digest in a reply to `HASH`: its last line is `ALGORITHM START-END HEX NAME`
    /// (draft-bryan-ftpext-hash §3.2); nil unless the algorithm is `algorithm` and the range is
    /// `range` (when given; END its last byte, or the byte after it as ProFTPD writes it).
    static func digest(inHashReply reply: FTPReply, algorithm: ServerHashAlgorithm, range: Range<UInt64>?) -> [UInt8]? {
        guard let last = reply.textLines.last else { return nil }
        let words = last.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true)
        guard words.count >= 3, words[0].uppercased() == algorithm.rawValue else { return nil }
        let bounds = words[1].split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let start = UInt64(bounds[0]), let end = UInt64(bounds[1]) else { return nil }
        if let range {
            guard start == range.lowerBound else { return nil }
            if end != range.upperBound, range.isEmpty || end != range.upperBound - 1 { return nil }
        }
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
