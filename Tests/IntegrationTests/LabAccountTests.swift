// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// The lab's servers share login accounts: busybox ftpd checks `/etc/shadow` itself and reads
/// only DES, MD5 and SHA-256/512 crypt, while vsftpd logs in through PAM. A vsftpd started
/// while a busybox server runs must leave the shared account readable by busybox (it once
/// rewrote the hash as yescrypt, and every later busybox login failed with 530 — the CI
/// failure of the busybox interop suite). Addresses 127.0.32.1–127.0.32.2.
@Suite struct LabAccountTests {
    @Test func aVsftpdStartedLaterLeavesBusyboxLoginsWorking() throws {
        let work = try makeTemporaryFolder("lab-account")
        let when = Push.minute()
        try writeTree([SampleFile(path: "a.txt", content: Array("a\n".utf8), modified: when)], at: work + "/bb")
        try writeTree([SampleFile(path: "b.txt", content: Array("b\n".utf8), modified: when)], at: work + "/vs")
        let busybox = try FTPServer(.busybox, root: work + "/bb", address: "127.0.32.1")
        defer { busybox.stop() }
        let vsftpd = try FTPServer(.vsftpd, root: work + "/vs", address: "127.0.32.2")
        defer { vsftpd.stop() }
        let config = try Push.config(busybox, local: work + "/mirror", at: work)
        let pull = try ftpsync(["pull", config, "--json"])
        #expect(pull.status == 0, "\(pull.stdout)\(pull.stderr)")
        #expect(Push.bytes(work + "/mirror/cam/a.txt") == Array("a\n".utf8))
    }
}
