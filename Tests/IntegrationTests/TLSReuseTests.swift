// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// TLS session reuse for thousands of data connections (issue 14 item 10): servers that refuse
/// a data connection that does not resume the control's session (RFC 4217 §10.2, vsftpd
/// `require_ssl_reuse=YES`), including one whose TLS 1.3 tickets run out after the first data
/// connection. A pull of 320 small files, each its own data connection. Addresses 127.0.11.30–39.
@Suite(.serialized) struct TLSReuseTests {
    /// vsftpd with `require_ssl_reuse=YES` and TLS 1.3: every data connection resumes.
    @Test func vsftpdRequiringReuseServesThreeHundredFiles() throws {
        let work = try makeTemporaryFolder("tls-reuse-vsftpd")
        let served = work + "/served"
        for index in 0..<320 {
            try writeFile(
                served + String(format: "/DCIM/%03d/f%03d.txt", index / 100, index), Array("file \(index)\n".utf8),
                modified: 1_700_000_000)
        }
        let server = try FTPServer(
            .vsftpd, root: served, address: "127.0.11.30", options: ["--tls", "explicit", "--ssl-reuse", "yes"])
        defer { server.stop() }
        let fingerprint = try #require(server.fingerprint)
        let config = work + "/device.yaml"
        try
            ("local: \(work)/mirror\ndevices:\n"
            + server.deviceYAML(
                name: "cam", extra: "    tls: explicit\n    fingerprint: \"\(fingerprint)\"\n    retries: 0\n"))
            .write(toFile: config, atomically: true, encoding: .utf8)
        let pulled = try ftpsync(["pull", config, "-q"], timeout: 300)
        #expect(pulled.status == 0, "\(pulled.stderr)")
        let copied = try FileManager.default.subpathsOfDirectory(atPath: work + "/mirror/cam").filter {
            $0.hasSuffix(".txt")
        }
        #expect(copied.count == 320)
    }

    /// A server that issues one TLS 1.3 ticket and takes one resumed TLS 1.3 data connection per
    /// control session, then answers 522 "session reuse required": the device falls back to
    /// TLS 1.2 resumption for the rest of the run and every file arrives.
    @Test func ticketsThatRunOutFallBackToTLS12() throws {
        let work = try makeTemporaryFolder("tls-one-ticket")
        let server = try HostileServer("tls-one-ticket", address: "127.0.11.31")
        defer { server.stop() }
        let fingerprint = try #require(server.printedLines().first)
        let config = work + "/device.yaml"
        try """
        local: \(work)/mirror
        devices:
          - name: cam
            host: \(server.address)
            port: \(server.port)
            user: tester
            password: pw
            tls: explicit
            fingerprint: "\(fingerprint)"
            timeout: 5
            retries: 2

        """.write(toFile: config, atomically: true, encoding: .utf8)
        let pulled = try ftpsync(["pull", config, "-v"], timeout: 300)
        #expect(pulled.status == 0, "\(pulled.stdout)\(pulled.stderr.suffix(3000))")
        let copied = try FileManager.default.contentsOfDirectory(atPath: work + "/mirror/cam").filter {
            $0.hasSuffix(".txt")
        }
        #expect(copied.count == 320)
        let sample = FileManager.default.contents(atPath: work + "/mirror/cam/f319.txt")
        #expect(sample.map { String(decoding: $0, as: UTF8.self) } == "file 319\n")
        #expect(pulled.stderr.contains("TLS 1.3 session tickets ran out"), "\(pulled.stderr.suffix(2000))")
        #expect(pulled.stderr.contains("TLS TLSv1.2"), "\(pulled.stderr.suffix(2000))")
    }
}
