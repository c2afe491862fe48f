// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

extension FTPSessionCore {
    /// Connects, reads the greeting, logs in and prepares the session (RFC 959 §5.4):
    /// 220 greeting (after any 120 replies), USER, PASS unless USER got 230, FEAT (RFC 2389),
    /// `OPTS UTF8 ON` when FEAT lists UTF8 and no other encoding is configured (any reply
    /// accepted), TYPE I.
    /// - Throws: `.invalidName` for an unknown encoding, `.connectFailed`, `.timedOut`,
    ///   `.reply` (e.g. 421 greeting, 530 login incorrect), `.connectionClosed`, `.protocolViolation`.
    ///   After an error the control connection is closed (with QUIT after a refusing reply).
    func connect() throws(FTPError) {
        quit()  // a second connect() starts over
        controlTLS = nil
        tlsDetails = nil
        protectsData = false
        nameCodec = try NameCodec(encoding: configuration.encoding)
        let socket: SocketTransport
        do {
            socket = try openControlConnection()
        } catch {
            // A proxy's answer may echo its credentials (the breaker's find): masked like replies.
            throw error.scrubbed(by: scrubber)
        }
        // A stop asked for while the server is slow to greet or answer the login ends the wait
        // (a run cap's cut, a signal); once logged in, the session waits as configured.
        socket.stop = configuration.pacingStop
        defer { socket.stop = nil }
        localHost = socket.localHost
        usesEPRT = true
        epsvWorked = false
        pipelineProven = false
        var restart = false
        let transport: any Transport = configuration.tls == .implicit ? try startTLS(on: socket) : socket
        control = ControlConnection(transport: transport, log: log, scrubber: scrubber)
        do throws(FTPError) {
            var greeting = try readReply(during: "greeting")
            while greeting.code == 120 { greeting = try readReply(during: "greeting") }
            guard greeting.code == 220 else {
                throw .reply(code: greeting.code, text: greeting.text, command: "connect")
            }
            banner = scrubber.scrub(greeting)
            if configuration.tls == .explicit {
                let auth = try exchange("AUTH TLS")
                guard auth.code == 234 else { throw .tlsRefused(code: auth.code, text: auth.text) }
                control = ControlConnection(transport: try startTLS(on: socket), log: log, scrubber: scrubber)
            }
            try logIn()
            if configuration.tls != .none { try protectDataConnections() }
            // FEAT is bounded (lines, time); one that does not end leaves the connection out of
            // step: start over without it, for the rest of the run.
            notes = []
            // A server this process saw answer pipelined commands gets TYPE I behind FEAT, in
            // one write: a round trip less for each of its later sessions (segments, the
            // connections a run adds).
            // Decided once: another session may prove the server meanwhile.
            let typeBehindFeat = provenForPipelining
            var typeSent = false
            if UnendingFeatureReplies.shared.contains(featureServerKey) {
                features = FTPFeatures()
                notes.append(Self.unendingFeatureNote)
            } else if let read = try boundedFeatures(withType: typeBehindFeat) {
                features = read
                typeSent = typeBehindFeat
            } else {
                UnendingFeatureReplies.shared.insert(featureServerKey)
                restart = true
            }
            if !restart {
                usesMLSD = features.mlsd
                if typeSent { try expect(readReply(during: "TYPE I"), "TYPE I", 200) }
                if features.utf8, nameCodec.encoding == nil { _ = try exchange("OPTS UTF8 ON") }
                if !typeSent { try expect(exchange("TYPE I"), "TYPE I", 200) }
                takeProvenPipeline()
            }
        } catch {
            // A refused login still ends with QUIT; a broken connection is just closed.
            switch error {
            case .reply, .tlsRefused: quit()
            default: control?.close()
            }
            controlTLS = nil
            control = nil
            throw error.scrubbed(by: scrubber)
        }
        if restart {
            log?("FEAT did not end: connecting again without it")
            control?.close()
            control = nil
            try connect()
        }
    }

    private func logIn() throws(FTPError) {
        let user = try exchange("USER", configuration.user)
        if user.code == 230 { return }
        guard user.code == 331 else { throw replyError(user, "USER \(configuration.user)") }
        let pass = try exchange("PASS", configuration.password, shown: "PASS ****")
        guard pass.code == 230 || pass.code == 202 else { throw replyError(pass, "PASS ****") }
    }
}
