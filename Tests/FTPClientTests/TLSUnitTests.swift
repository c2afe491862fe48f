// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Testing

/// Fingerprint text and the TLS errors' messages.
struct TLSUnitTests {
    static let digest: [UInt8] = (0..<32).map { UInt8($0 * 8 + 5) }
    static let formatted =
        "sha256:05:0D:15:1D:25:2D:35:3D:45:4D:55:5D:65:6D:75:7D:85:8D:95:9D:A5:AD:B5:BD:C5:CD:D5:DD:E5:ED:F5:FD"

    @Test func formatsADigestAsColonSeparatedUpperHex() {
        #expect(Fingerprint.format(Self.digest) == Self.formatted)
    }

    @Test(arguments: [
        (formatted, "050d151d252d353d454d555d656d757d858d959da5adb5bdc5cdd5dde5edf5fd"),
        ("  " + formatted.lowercased() + " ", "050d151d252d353d454d555d656d757d858d959da5adb5bdc5cdd5dde5edf5fd"),
        (
            "050D151D252D353D454D555D656D757D858D959DA5ADB5BDC5CDD5DDE5EDF5FD",
            "050d151d252d353d454d555d656d757d858d959da5adb5bdc5cdd5dde5edf5fd"
        ),
    ])
    func normalizesAcceptedSpellings(text: String, hex: String) {
        #expect(Fingerprint.normalize(text) == hex)
    }

    @Test(arguments: [
        "", "sha256:", "sha1:AB", String(repeating: "a", count: 63), String(repeating: "g", count: 64),
        "sha256:" + String(repeating: "ab", count: 33),
    ])
    func rejectsWhatIsNotASHA256(text: String) {
        #expect(Fingerprint.normalize(text) == nil)
    }

    @Test func certificateErrorsShowThePresentedFingerprintAndHowToPinIt() {
        let untrusted = FTPError.certificateUntrusted(reason: "self-signed certificate", presented: Self.formatted)
        #expect(untrusted.description.contains("self-signed certificate"))
        #expect(untrusted.description.contains("fingerprint: \"\(Self.formatted)\""))
        #expect(untrusted.description.contains("nothing was sent"))
        #expect(!untrusted.isTransient)
        let mismatch = FTPError.fingerprintMismatch(pinned: "sha256:00", presented: Self.formatted)
        #expect(mismatch.description.contains(Self.formatted) && mismatch.description.contains("sha256:00"))
        #expect(!mismatch.isTransient)
        let refused = FTPError.tlsRefused(code: 500, text: "Unknown command")
        #expect(refused.description.contains("500 Unknown command") && refused.description.contains("not sent"))
        #expect(FTPError.tlsFailed("handshake").isTransient)
    }
}
