// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation
import LocalTree
import SyncCore
import SyncEngine
import SyncRunner
import Testing

@testable import FTPSyncCLI

/// `ftpsync verify` (issue 21) without a server: which side changed by the recorded digests
/// (`VerifyJudge`), the walk over real local files with a stand-in for the server's digests
/// (`DeviceVerifier`), and the report (`VerifyDeviceReport`).
struct VerifyTests {
    static let path = try! RelativePath(validating: "DCIM/a.jpg")
    static let modified = FileTime(seconds: 1_700_000_000.25, granularity: .exact)

    static func sha256(_ bytes: [UInt8]) -> ServerHash {
        let hasher = ServerHashAlgorithm.sha256.makeHasher()
        bytes.withUnsafeBytes { hasher.update($0) }
        return ServerHash(algorithm: .sha256, digest: hasher.finalize() ?? [])
    }

    static let original: [UInt8] = Array("the camera's picture".utf8)
    static let damaged: [UInt8] = Array("the camera's pictura".utf8)
    static let edited: [UInt8] = Array("the picture, edited here".utf8)

    /// The record of a sync of `original`: its XXH3 and the server's SHA-256 (when `server`).
    static func record(digest: Bool = true, server: ServerHash? = sha256(original)) -> FileRecord {
        var record = FileRecord(
            path: path, remoteSize: UInt64(original.count), remoteModified: modified,
            localSize: UInt64(original.count), localModified: modified,
            digest: digest ? XXH3Hasher.digest(of: original) : nil)
        record.serverDigest = server.map(ServerDigestText.format)
        return record
    }

    /// The local file holding `bytes`, its time `time`.
    static func local(_ bytes: [UInt8], time: FileTime = modified) -> LocalFileDigests {
        LocalFileDigests(
            size: UInt64(bytes.count), modified: time, xxh3: XXH3Hasher.digest(of: bytes), server: sha256(bytes))
    }

    @Test func theSameContentOnBothSidesIsOk() {
        let verdict = VerifyJudge.judge(
            Self.record(), local: Self.local(Self.original), server: Self.sha256(Self.original))
        #expect(verdict == FileVerdict(path: Self.path, status: .ok))
    }

    /// Bit rot here: the device's digest is the recorded one, the local file's size and time are
    /// unchanged, its XXH3 is not.
    @Test func aLocalFileDamagedWithItsSizeAndTimeKept() {
        let verdict = VerifyJudge.judge(
            Self.record(), local: Self.local(Self.damaged), server: Self.sha256(Self.original))
        #expect(verdict.status == .differs && verdict.changed == .local)
        #expect(verdict.detail == "SHA-256 differs; the local file changed with its size and time kept (damage)")
    }

    /// Without any recorded XXH3, the device's unchanged digest alone tells: the local side.
    @Test func theDevicesUnchangedDigestPointsAtTheLocalFile() {
        let verdict = VerifyJudge.judge(
            Self.record(digest: false), local: Self.local(Self.damaged), server: Self.sha256(Self.original))
        #expect(verdict.changed == .local && verdict.detail?.contains("(damage)") == true)
    }

    @Test func aLocalEditIsNotCalledDamage() {
        let later = FileTime(seconds: 1_700_000_500, granularity: .exact)
        let verdict = VerifyJudge.judge(
            Self.record(), local: Self.local(Self.edited, time: later), server: Self.sha256(Self.original))
        #expect(verdict.changed == .local)
        #expect(verdict.detail?.contains("edited here") == true && verdict.detail?.contains("damage") == false)
    }

    @Test func aDeviceFileChangedOnTheServer() {
        let verdict = VerifyJudge.judge(
            Self.record(), local: Self.local(Self.original), server: Self.sha256(Self.edited))
        #expect(verdict.status == .differs && verdict.changed == .device)
        #expect(verdict.detail == "SHA-256 differs; the device file changed")
    }

    /// No server digest recorded (a pull with `verify: off`, or one the server's hash failed
    /// for): the local XXH3 as recorded does not tell the device changed — the copy may never
    /// have matched (a bit flipped on the way, unchecked). It was reported as the device's
    /// change (breaker review).
    @Test func anUnchangedLocalFileWithoutAServerDigestDoesNotBlameTheDevice() {
        let verdict = VerifyJudge.judge(
            Self.record(server: nil), local: Self.local(Self.original), server: Self.sha256(Self.edited))
        #expect(verdict.changed == .unknown)
        #expect(verdict.detail?.contains("local file is as recorded") == true)
        #expect(verdict.detail?.contains("never matched") == true)
    }

    @Test func bothSidesChanged() {
        let verdict = VerifyJudge.judge(
            Self.record(), local: Self.local(Self.damaged), server: Self.sha256(Self.edited))
        #expect(verdict.changed == .both)
    }

    @Test func withoutRecordedDigestsTheSideIsUnknown() {
        let verdict = VerifyJudge.judge(
            Self.record(digest: false, server: nil), local: Self.local(Self.damaged),
            server: Self.sha256(Self.original))
        #expect(verdict.status == .differs && verdict.changed == .unknown)
    }

    /// A server digest recorded in another algorithm says nothing of the device side.
    @Test func aRecordedDigestOfAnotherAlgorithmIsNotCompared() {
        var record = Self.record(digest: false)
        record.serverDigest = "MD5:" + String(repeating: "ab", count: 16)
        let verdict = VerifyJudge.judge(record, local: Self.local(Self.damaged), server: Self.sha256(Self.original))
        #expect(verdict.changed == .unknown)
    }

    /// Both digests as recorded, yet the copies differ: the copy never matched.
    @Test func neitherSideChangedYetTheyDiffer() {
        var record = Self.record()
        record.serverDigest = ServerDigestText.format(Self.sha256(Self.edited))
        let verdict = VerifyJudge.judge(record, local: Self.local(Self.original), server: Self.sha256(Self.edited))
        #expect(verdict.changed == .unknown && verdict.detail?.contains("never matched") == true)
    }

    @Test func aDigestThatCannotBeComputedHereIsUnverifiable() {
        var local = Self.local(Self.original)
        local.server = nil
        let verdict = VerifyJudge.judge(Self.record(), local: local, server: Self.sha256(Self.original))
        #expect(verdict.status == .unverifiable && verdict.changed == nil)
    }

    @Test func locallyTheRecordedXXH3Decides() {
        #expect(VerifyJudge.judgeLocally(Self.record(), local: Self.local(Self.original)).status == .ok)
        let rot = VerifyJudge.judgeLocally(Self.record(), local: Self.local(Self.damaged))
        #expect(rot.status == .differs && rot.changed == .local && rot.detail?.hasSuffix("(bit rot)") == true)
        let later = FileTime(seconds: 1_700_000_500, granularity: .exact)
        let edit = VerifyJudge.judgeLocally(Self.record(), local: Self.local(Self.edited, time: later))
        #expect(edit.changed == .local && edit.detail?.contains("bit rot") == false)
        let none = VerifyJudge.judgeLocally(Self.record(digest: false), local: Self.local(Self.original))
        #expect(none.status == .unverifiable)
    }
}
