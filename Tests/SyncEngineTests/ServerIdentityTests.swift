// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Testing

@testable import SyncEngine

/// `ServerIdentity.decisiveChanges`: what shows another server, not the same one updated
/// (issue 14 item 18).
struct ServerIdentityTests {
    static let pyftpdlib = "EPRT | EPSV | MDTM | MFMT | MLST type*;size*;modify*; | REST STREAM | SIZE | TVFS | UTF8"
    static let recorded = ServerIdentity(
        banner: "CamOS ready", system: "215 UNIX Type: L8", features: pyftpdlib, certificate: "sha256:AA")

    /// (what changed, is it another server?)
    @Test(arguments: [
        (
            ServerIdentity(
                banner: "CamOS beta", system: "215 UNIX Type: L8", features: pyftpdlib, certificate: "sha256:AA"), false
        ),
        (
            ServerIdentity(
                banner: "CamOS ready", system: "215 Windows_NT", features: pyftpdlib, certificate: "sha256:AA"), true
        ),
        (
            ServerIdentity(
                banner: "CamOS ready", system: "215 UNIX Type: L8", features: pyftpdlib, certificate: "sha256:BB"), true
        ),
        // Features gained (and parameters changed): an update.
        (
            ServerIdentity(
                banner: "CamOS ready", system: "215 UNIX Type: L8", features: pyftpdlib + " | HASH SHA-256 | XCRC",
                certificate: "sha256:AA"), false
        ),
        (
            ServerIdentity(
                banner: "CamOS ready", system: "215 UNIX Type: L8",
                features: "EPRT | EPSV | MDTM | MFMT | MLST size*; | REST STREAM | SIZE | TVFS | UTF8",
                certificate: "sha256:AA"), false
        ),
        // Two features gone (no MLST, no EPSV): another server.
        (
            ServerIdentity(
                banner: "CamOS ready", system: "215 UNIX Type: L8",
                features: "EPRT | MDTM | MFMT | REST STREAM | SIZE | TVFS | UTF8", certificate: "sha256:AA"), true
        ),
        // vsftpd's FEAT: MFMT and MLST gone, PASV new.
        (
            ServerIdentity(
                banner: "CamOS ready", system: "215 UNIX Type: L8",
                features: "EPRT | EPSV | MDTM | PASV | REST STREAM | SIZE | TVFS | UTF8", certificate: "sha256:AA"),
            true
        ),
        // A FEAT that failed this time proves nothing.
        (
            ServerIdentity(banner: "CamOS ready", system: "215 UNIX Type: L8", features: "", certificate: "sha256:AA"),
            false
        ),
    ])
    func decisive(current: ServerIdentity, anotherServer: Bool) {
        #expect(current.decisiveChanges(from: Self.recorded).isEmpty == !anotherServer, "\(current)")
        #expect(!current.changes(from: Self.recorded).isEmpty)
    }
}
