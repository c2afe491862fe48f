// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

extension FTPSessionCore {
    /// Most lines a FEAT reply may have (RFC 2389 servers list a few dozen features).
    static let maximumFeatureLines = 500
    /// Longest a whole FEAT reply may take, in seconds (never more than the configured timeout).
    static let maximumFeatureSeconds = 10.0

    /// The note of a session whose server's FEAT did not end: features treated as absent.
    static let unendingFeatureNote =
        "the server's FEAT reply did not end (over \(maximumFeatureLines) lines or \(Int(maximumFeatureSeconds)) s): "
        + "its features are treated as absent (LIST instead of MLSD) for this run"

    /// The key of this session's server in the process's server memories
    /// (`UnendingFeatureReplies`, `PipelineRefusingServers`, ...): its host and port, and the
    /// proxy it is reached through (two sites' devices may share a private address).
    var featureServerKey: String {
        let server = "\(configuration.host):\(configuration.port)"
        guard let proxy = configuration.proxy else { return server }
        return server + " via \(proxy.kind.rawValue)://\(FTPError.hostPort(proxy.host, proxy.port))"
    }

    /// Sends FEAT (RFC 2389) and reads its reply within `maximumFeatureLines` lines and
    /// `maximumFeatureSeconds` seconds; `TYPE I` goes out in the same write when `withType`
    /// (its reply, next in line, is the caller's to read).
    /// - Returns: the features (none when FEAT was refused), or nil when the reply did not end
    ///   within the bounds: the control connection is then out of step and must be started over.
    /// - Throws: connection errors other than the bounds' (`.connectionClosed`, a malformed line).
    func boundedFeatures(withType: Bool = false) throws(FTPError) -> FTPFeatures? {
        guard let control else { throw .connectionClosed }
        if withType {
            try control.sendLines([(Array("FEAT".utf8), "FEAT"), (Array("TYPE I".utf8), "TYPE I")])
        } else {
            try control.sendLine(Array("FEAT".utf8), shown: "FEAT")
        }
        do {
            let reply = try control.readReply(
                during: "FEAT", maximumLines: Self.maximumFeatureLines,
                seconds: min(configuration.timeout, Self.maximumFeatureSeconds))
            return reply.code == 211 ? FTPFeatures(reply: scrubber.scrub(reply)) : FTPFeatures()
        } catch .timedOut {
            return nil
        } catch .protocolViolation(let what) where what.hasPrefix(ControlConnection.tooManyLines) {
            return nil
        } catch {
            throw error
        }
    }
}
