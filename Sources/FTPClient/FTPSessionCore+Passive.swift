// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// Passive-mode data connections (RFC 959 §4.1.2 PASV, RFC 2428 §3 EPSV).
extension FTPSessionCore {
    /// Opens a data connection and sends the transfer command (REST first when `offset` > 0;
    /// RFC 3659 §5 wants REST right before the transfer command).
    /// - Returns: the connected data connection and the first reply to the command: 1xx
    ///   (transfer starts; a final reply follows) or 2xx (already complete).
    func startTransfer(_ verb: String, _ path: String?, offset: UInt64) throws(FTPError) -> (any Transport, FTPReply) {
        if let started = try takePrefetch(verb, path, offset: offset) { return started }
        if !configuration.passive { return try startActiveTransfer(verb, path, offset: offset) }
        if pipelines, let started = try startPipelined(verb, path, offset: offset) { return started }
        let data = try openDataConnection()
        do throws(FTPError) {
            if offset > 0 {
                try expect(exchange("REST \(offset)"), "REST \(offset)", 350)
            }
            let shown = path.map { "\(verb) \($0)" } ?? verb
            let reply = try exchange(verb, path, shown: shown)
            return (try started(data, reply, shown), reply)
        } catch {
            data.close()
            throw error
        }
    }

    /// EPSV first (unless it failed earlier in this session), PASV after a 500/501/502/504
    /// reply, a malformed 229 or a data connection that could not be made; the data
    /// connection is made right after the reply, before the transfer command.
    /// - Throws: `.reply` when PASV is refused, `.protocolViolation` for a malformed 227,
    ///   `.connectFailed` when the data connection cannot be made.
    func openDataConnection() throws(FTPError) -> SocketTransport {
        if usesEPSV {
            let reply = try exchange("EPSV")
            if [500, 501, 502, 504].contains(reply.code) {
                disableEPSV("EPSV refused (\(reply.code))")
            } else if reply.code == 229 || reply.code == 227 {
                do {
                    let data = try connectData(to: PassiveEndpoint.parse(reply))
                    epsvWorked = true
                    return data
                } catch .connectFailed(let host, let port, let reason) {
                    disableEPSV("EPSV data connection to \(host):\(port) failed (\(reason))")
                } catch .proxyFailed(let failure) where failure.kind == .deviceUnreachable {
                    disableEPSV("EPSV data connection through the proxy failed (\(failure.detail))")
                } catch .protocolViolation(let what) {
                    disableEPSV("EPSV reply unusable: \(what)")
                }
            } else if reply.isCompletion {
                // A 2xx other than 229 is the final reply of an earlier transfer.
                throw .outOfStep("reply \(reply.code) to EPSV belongs to an earlier command")
            } else {
                throw replyError(reply, "EPSV")
            }
        }
        let reply = try exchange("PASV")
        if reply.isCompletion && reply.code != 227 && reply.code != 229 {
            throw .outOfStep("reply \(reply.code) to PASV belongs to an earlier command")
        }
        guard reply.code == 227 || reply.code == 229 else { throw replyError(reply, "PASV") }
        return try connectData(to: PassiveEndpoint.parse(reply))
    }

    func disableEPSV(_ why: String) {
        log?("\(why); using PASV for this session")
        usesEPSV = false
    }

    func connectData(to endpoint: PassiveEndpoint) throws(FTPError) -> SocketTransport {
        lastPassiveEndpoint = endpoint
        let host = endpoint.dataHost(peer: peerHost ?? configuration.host, policy: configuration.passiveAddress)
        return try openDataSocket(host: host, port: Int(endpoint.port))
    }
}
