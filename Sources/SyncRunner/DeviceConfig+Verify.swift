// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import SyncConfig
import SyncCore
import SyncEngine

extension DeviceConfig {
    /// Verifies `records` (this device's, from the state) against the server's own digests of
    /// the device files (`ftpsync verify`, issue 21): one session, `HASH` (else `XSHA256`, …)
    /// per file, probing with `OPTS HASH` where FEAT names no hash command whatever `verify`
    /// says; QUIT at the end. Nothing is changed on either side. No records: no connection.
    /// - Parameter log: each FTP command and reply (PASS masked), when given.
    /// - Returns: the verdicts; `failure` when the device could not be verified (configuration,
    ///   connection, no hash command) or the connection failed midway.
    public func verify(
        _ records: [FileRecord], log: (@Sendable (String) -> Void)? = nil
    ) -> DeviceVerification {
        if let problem { return DeviceVerification(failure: .configuration(problem)) }
        guard !records.isEmpty else { return DeviceVerification() }
        var settings = sessionConfiguration
        settings.probesHash = true
        let session = FTPSession(configuration: settings, log: log)
        defer { session.quit() }
        let algorithm: ServerHashAlgorithm?
        do {
            try session.connect()
            algorithm = try session.fileHashAlgorithm()
        } catch {
            return DeviceVerification(failure: .connection("\(explainingLogin(error))"))
        }
        guard let algorithm else { return DeviceVerification(failure: .noHashCommand) }
        let root = remote
        // A digest for another range than the whole file as recorded is not taken.
        var sizes: [RelativePath: UInt64] = [:]
        for record in records { sizes[record.path] = record.remoteSize }
        let verifier = DeviceVerifier(localRoot: localPath) { path in
            try DeviceConfig.serverDigest(session, of: remotePath(root: root, relative: path.string), size: sizes[path])
        }
        var result = verifier.verify(records)
        result.algorithm = algorithm.rawValue
        return result
    }

    /// `records` against the XXH3 digests recorded at the last sync, with no network
    /// (`ftpsync verify --local`): finds a local file changed since, bit rot included.
    /// - Returns: the verdicts (`algorithm` `XXH3`); never a failure.
    public func verifyLocally(_ records: [FileRecord]) -> DeviceVerification {
        DeviceVerifier(localRoot: localPath, serverDigests: nil).verify(records)
    }

    /// The server's digest of the file at `path` (absolute on the server; `size` bytes as
    /// recorded, when known: a digest of another range is not taken) through `session`. A 550
    /// to the hash command is `missing` when SIZE answers 550 too, else the server would not
    /// hash it (`unavailable`); other refusals are `unavailable` too.
    /// - Throws: `FTPError` for connection errors (timed out, connection closed).
    static func serverDigest(_ session: FTPSession, of path: String, size: UInt64?) throws(FTPError)
        -> ServerDigestAnswer
    {
        do throws(FTPError) {
            guard let hash = try session.serverHash(path, size: size) else {
                return .unavailable("the server offers no way to hash this file")
            }
            return .digest(hash)
        } catch .reply(let code, let text, let command) {
            let reply = "\(command): \(code) \(text)"
            if (200..<300).contains(code) {
                // A digest of another range than the size recorded: the file may have changed size.
                if let size, let now = try? session.size(path), now != size { return .sizeChanged(now) }
                return .unavailable("the server's answer holds no digest of the whole file: " + reply)
            }
            guard code == 550 else { return .unavailable("the server would not hash it: " + reply) }
            do throws(FTPError) {
                _ = try session.size(path)
                return .unavailable("the server would not hash it: " + reply)
            } catch .reply(let sizeCode, _, _) where sizeCode == 550 {
                // SIZE does not find it either: the hash command's 550 stands.
                return .missing(reply)
            } catch .reply(_, _, _) {
                // SIZE not offered (500, 502): nothing tells the file is gone.
                return .unavailable("the server would not hash it: " + reply)
            } catch .protocolViolation(_) {
                // A SIZE answer without a number: the file is there.
                return .unavailable("the server would not hash it: " + reply)
            }
        }
    }
}
