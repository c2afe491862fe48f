// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// Active-mode data connections (RFC 959 §4.1.2 PORT, RFC 2428 §2 EPRT): the client listens,
/// names its address and port, and the server connects after the transfer command.
extension FTPSessionCore {
    /// Listens on the control connection's local address, sends EPRT (PORT after a
    /// 500/501/502/522 reply, for the rest of the session), REST when `offset` > 0 and the
    /// transfer command, then accepts the server's data connection.
    /// - Returns: the data connection and the first reply to the command (1xx or 2xx).
    /// - Throws: `.reply` when EPRT/PORT or the command is refused, `.connectFailed` when the
    ///   server did not connect, `.protocolViolation` for a connection from another address.
    func startActiveTransfer(_ verb: String, _ path: String?, offset: UInt64) throws(FTPError) -> (
        any Transport, FTPReply
    ) {
        let listener = try DataListener.open(on: localHost ?? "")
        defer { listener.close() }
        try announce(listener)
        if offset > 0 {
            try expect(exchange("REST \(offset)"), "REST \(offset)", 350)
        }
        let shown = path.map { "\(verb) \($0)" } ?? verb
        let reply = try exchange(verb, path, shown: shown)
        guard reply.isPreliminary || reply.isCompletion else { throw replyError(reply, shown) }
        let data: SocketTransport
        do throws(FTPError) {
            data = try listener.accept(expectedPeer: peerHost ?? "", timeout: configuration.timeout)
        } catch {
            // The server's final reply (425 or 226) keeps the control connection in step.
            if reply.isPreliminary { _ = try? readReply(during: shown) }
            throw error
        }
        if protectsData, reply.isPreliminary {
            return (try protectData(data, for: shown), reply)
        }
        return (data, reply)
    }

    /// Names the listener to the server: EPRT `|1|addr|port|` (`|2|` for IPv6), else PORT
    /// `h1,h2,h3,h4,p1,p2` (IPv4 only).
    private func announce(_ listener: DataListener) throws(FTPError) {
        if usesEPRT {
            let family = listener.isIPv6 ? 2 : 1
            let line = "EPRT |\(family)|\(listener.host)|\(listener.port)|"
            let reply = try exchange(line)
            if reply.isCompletion { return }
            guard [500, 501, 502, 522].contains(reply.code) else { throw replyError(reply, line) }
            log?("EPRT refused (\(reply.code)); using PORT for this session")
            usesEPRT = false
        }
        guard !listener.isIPv6 else {
            throw .protocolViolation("the server refused EPRT and PORT cannot name an IPv6 address")
        }
        let numbers =
            listener.host.split(separator: ".").map(String.init) + [
                String(listener.port / 256), String(listener.port % 256),
            ]
        let line = "PORT " + numbers.joined(separator: ",")
        try expectCompletion(exchange(line), line)
    }
}
