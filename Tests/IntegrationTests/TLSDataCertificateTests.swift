// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 13 item 15: a data connection is verified like the control connection. A scripted
/// FTPS server (`scripts/hostile-ftp.py tls-data-cert`) presents one self-signed certificate
/// on the control connection (and listings) and another on every download's data connection; with the device pinned to
/// the control's certificate, no byte of such a data connection is written. `tls-same-cert`
/// (the control's certificate on data connections too) still works.
/// Addresses 127.0.5.5–127.0.5.6.
@Suite(.serialized) struct TLSDataCertificateTests {
    private func pinnedConfig(_ server: HostileServer, fingerprint: String, mirror: String, at folder: String) throws
        -> String
    {
        let text = """
            local: \(mirror)
            devices:
              - name: cam
                host: \(server.address)
                port: \(server.port)
                user: tester
                password_env: HOSTILE_PASS
                tls: explicit
                fingerprint: "\(fingerprint)"
                timeout: 3
                retries: 1

            """
        let path = folder + "/device.yaml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Every regular file below `folder` (relative paths), `.ftpsync/state*` left out.
    private func filesWritten(_ folder: String) -> [String] {
        var found: [String] = []
        let walker = FileManager.default.enumerator(atPath: folder)
        while let relative = walker?.nextObject() as? String {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder + "/" + relative, isDirectory: &isFolder)
            if !isFolder.boolValue && !relative.hasPrefix(".ftpsync/state") && !relative.hasPrefix(".ftpsync/lock") {
                found.append(relative)
            }
        }
        return found
    }

    @Test func aDataConnectionWithAnotherCertificateIsRefusedAndNothingIsWritten() throws {
        let work = try makeTemporaryFolder("tls-data-cert")
        let server = try HostileServer("tls-data-cert", address: "127.0.5.5")
        defer { server.stop() }
        let fingerprint = try #require(server.printedLines().first)
        #expect(fingerprint.hasPrefix("sha256:"))
        let mirror = work + "/mirror"
        let config = try pinnedConfig(server, fingerprint: fingerprint, mirror: mirror, at: work)
        let result = try ftpsync(["pull", config, "--json"], environment: ["HOSTILE_PASS": "x"], timeout: 60)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let device = (document?["devices"] as? [[String: Any]])?.first
        let actions = device?["actions"] as? [[String: Any]] ?? []
        let errors = ([device?["error"] as? String] + actions.map { $0["error"] as? String }).compactMap { $0 }
        // The listing's data connection had the right certificate; each download's is refused.
        #expect(actions.count == 1 && actions.allSatisfy { $0["status"] as? String == "failed" }, "\(actions)")
        #expect(
            errors.contains { $0.contains("data connection") && $0.contains("certificate") },
            "\(result.stdout)\(result.stderr)")
        #expect(filesWritten(mirror).isEmpty, "\(filesWritten(mirror))")
    }

    @Test func theControlsOwnCertificateOnDataConnectionsStillWorks() throws {
        let work = try makeTemporaryFolder("tls-same-cert")
        let server = try HostileServer("tls-same-cert", address: "127.0.5.6")
        defer { server.stop() }
        let fingerprint = try #require(server.printedLines().first)
        let mirror = work + "/mirror"
        let config = try pinnedConfig(server, fingerprint: fingerprint, mirror: mirror, at: work)
        let result = try ftpsync(["pull", config], environment: ["HOSTILE_PASS": "x"], timeout: 60)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(FileManager.default.contents(atPath: mirror + "/cam/good.txt") == Data("good content\n".utf8))
    }
}
