// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPListing

/// Listings over the control connection: `STAT <folder>` (RFC 959 §4.1.3), for servers whose
/// listing data connections fail (a firewall that blocks the data port).
extension FTPSessionCore {
    /// How many times the configured timeout one STAT reply may take in all, however steadily
    /// its lines trickle in: beyond, the listing fails (`.timedOut`).
    static let statReplyTimeouts = 10.0

    /// Lists `path` with STAT and reads the reply's lines as LIST lines (`StatListingReader`),
    /// at most `maximumListingBytes` of them: beyond, the listing's `truncation` says so (a
    /// reply that goes on for as much again fails). The reply must end within
    /// `statReplyTimeouts` times the configured timeout. An
    /// empty `path` lists `.` (STAT without an argument is the server's status, not a listing).
    /// The path is sent as LIST's is; the engine's paths are absolute, so none reads as an
    /// option (`-l`), and spaces need no quoting (the argument is the rest of the line).
    /// - Throws: `.reply` when the server refuses, or answers with anything but a multi-line
    ///   211/212/213 reply; `.protocolViolation` (a reply over twice the bound, or what
    ///   `reserve` throws); `.timedOut` (a line late, or the reply not ended in time),
    ///   `.connectionClosed`.
    func statListing(_ path: String, reserve: ((Int) throws -> Void)?) throws(FTPError) -> RawListing {
        guard let control else { throw .connectionClosed }
        let argument = path.isEmpty ? "." : path
        let shown = "STAT \(argument)"
        try control.sendLine(Array("STAT ".utf8) + nameCodec.encode(argument), shown: shown)
        var reader = StatListingReader(maximumBytes: Self.maximumListingBytes)
        try control.readLines(during: shown, seconds: configuration.timeout * Self.statReplyTimeouts) {
            (line) throws(FTPError) in try reader.feed(line, reserve: reserve)
        }
        let code = reader.code ?? 0
        guard (211...213).contains(code), !reader.isSingleLine else {
            throw .reply(code: code, text: "no listing in the reply to STAT", command: shown)
        }
        let truncation =
            reader.droppedLines > 0
            ? "the STAT reply went over \(Self.maximumListingBytes) bytes (\(reader.droppedLines) lines left out)" : nil
        return RawListing(format: .list, bytes: reader.bytes, truncation: truncation)
    }

    /// What a listing's `error` says of its data connection when it could not be used (the
    /// connection was refused or timed out — `.connectFailed` while the control connection is
    /// up is a data connection's —, the proxy could not reach its port or may not, the server answered 425/426, or the data connection broke
    /// before a byte arrived), in a few words; nil for any other error.
    static func dataConnectionFailure(_ error: FTPError) -> String? {
        switch error {
        case .connectFailed(let host, let port, let reason):
            return "the data connection to \(host):\(port) failed: \(reason)"
        case .proxyFailed(let failure) where failure.kind == .deviceUnreachable || failure.kind == .notAllowed:
            // Through a proxy: the proxy could not reach the passive port, or its rules forbid it.
            return "the data connection to \(failure.target) through the proxy failed: \(failure.detail)"
        case .reply(let code, let text, _) where code == 425 || code == 426:
            return "\(code) \(text)"
        case .dataConnectionClosed(0, let reason):
            // A 4xx final reply other than 425/426 (450, 451) is the server's own trouble.
            let broke = reason.hasPrefix("425") || reason.hasPrefix("426") || !reason.hasPrefix("4")
            return broke ? reason : nil
        default: return nil
        }
    }

    /// Lists `path` with STAT after its data connection failed with `error` (`failure` says
    /// how, see `dataConnectionFailure`), and from then on
    /// (this session and, through `ControlConnectionListings`, every later connection to the
    /// server in this process) when STAT gives a listing.
    /// - Throws: `error` when the server does not list with STAT; what `statListing` throws
    ///   when the connection broke.
    func listOverControl(
        _ path: String, after error: FTPError, because failure: String, reserve: ((Int) throws -> Void)?
    ) throws(FTPError) -> RawListing {
        let listing: RawListing
        do {
            listing = try statListing(path, reserve: reserve)
        } catch .reply {
            throw error
        }
        let reason = "listing data connections fail (\(failure))"
        controlListingReason = reason
        ControlConnectionListings.shared.insert(featureServerKey, note: reason)
        log?("listing data connections fail (\(failure)): listing with STAT from now on")
        return listing
    }
}
