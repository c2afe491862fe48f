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

/// `ftpsync verify` over real local files with a stand-in for the server's digests
/// (`DeviceVerifier`), and its report (`VerifyDeviceReport`): text lines, JSON, exit status.
struct VerifyWalkTests {
    /// The server's answers by path, and the paths it was asked for.
    final class Server {
        var answers: [String: ServerDigestAnswer] = [:]
        var asked: [String] = []
        var failAt: String?

        struct Lost: Error, CustomStringConvertible {
            var description: String { "connection closed by the server" }
        }

        func digest(_ path: RelativePath) throws -> ServerDigestAnswer {
            asked.append(path.string)
            if path.string == failAt { throw Lost() }
            return answers[path.string] ?? .unavailable("not set up")
        }
    }

    static let content: [UInt8] = Array(repeating: 7, count: 1000) + Array("end".utf8)

    /// A device folder with one file per case, the records of a sync of `content` at each path,
    /// and the server's answers (SHA-256 of `content` unless the case says otherwise).
    static func tree() throws -> (root: String, records: [FileRecord], server: Server) {
        let root = NSTemporaryDirectory() + "verify-walk-\(UUID().uuidString)"
        let files = LocalFileSystem()
        try files.makeFolders(at: root)
        let server = Server()
        var records: [FileRecord] = []
        for name in ["a.jpg", "b.jpg", "c.jpg", "d.jpg", "e.jpg", "f.jpg", "g"] {
            let path = root + "/" + name
            try Data(content).write(to: URL(fileURLWithPath: path))
            let status = try #require(try files.status(at: path))
            var record = FileRecord(
                path: try RelativePath(validating: name), remoteSize: UInt64(content.count), remoteModified: nil,
                localSize: status.identity.size, localModified: status.identity.modified,
                digest: XXH3Hasher.digest(of: content))
            record.serverDigest = ServerDigestText.format(VerifyTests.sha256(content))
            records.append(record)
            server.answers[name] = .digest(VerifyTests.sha256(content))
        }
        // b.jpg: one byte flipped here, its time set back.
        var damaged = content
        damaged[500] ^= 0x10
        try Data(damaged).write(to: URL(fileURLWithPath: root + "/b.jpg"))
        try files.setModificationTime(nanoseconds: Int64(records[1].localModified.seconds * 1e9), at: root + "/b.jpg")
        // c.jpg gone here; d.jpg gone from the device; e.jpg not hashed by the server.
        _ = try files.removeFile(at: root + "/c.jpg")
        server.answers["d.jpg"] = .missing("HASH /d.jpg: 550 No such file or directory")
        server.answers["e.jpg"] = .unavailable("the server would not hash it: HASH /e.jpg: 556 too busy")
        // f.jpg offloaded: the device no longer has it; checked against the recorded XXH3.
        records[5].offloaded = true
        server.answers["f.jpg"] = .missing("HASH /f.jpg: 550 No such file or directory")
        // g: a folder where the file was.
        _ = try files.removeFile(at: root + "/g")
        try files.makeFolders(at: root + "/g")
        return (root, records.reversed(), server)
    }

    @Test func eachCaseGetsItsVerdictInPathOrder() throws {
        let (root, records, server) = try Self.tree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = DeviceVerifier(localRoot: root, serverDigests: server.digest).verify(records)
        #expect(result.failure == nil)
        #expect(result.files.map(\.path.string) == ["a.jpg", "b.jpg", "c.jpg", "d.jpg", "e.jpg", "f.jpg", "g"])
        #expect(
            result.files.map(\.status) == [.ok, .differs, .missingLocal, .missingRemote, .unverifiable, .ok, .differs])
        #expect(result.files.map(\.changed) == [nil, .local, .local, .device, nil, nil, .local])
        #expect(
            result.files[1].detail == "SHA-256 differs; the local file changed with its size and time kept (damage)")
        #expect(result.files[6].detail == "a folder is here now, not the file")
        // Neither a file gone here, nor an offloaded one, nor a folder is asked of the server.
        #expect(server.asked == ["a.jpg", "b.jpg", "d.jpg", "e.jpg"])
        #expect(result.hasProblem)
    }

    @Test func locallyNoServerIsAskedAndTheRecordedDigestsDecide() throws {
        let (root, records, server) = try Self.tree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = DeviceVerifier(localRoot: root, serverDigests: nil).verify(records)
        #expect(result.algorithm == "XXH3")
        #expect(result.files.map(\.status) == [.ok, .differs, .missingLocal, .ok, .ok, .ok, .differs])
        #expect(result.files[1].detail?.hasSuffix("with its size and time kept (bit rot)") == true)
        #expect(server.asked.isEmpty)
    }

    /// A connection lost midway stops the device: the files before keep their verdicts, the
    /// failure names the file and how many were left.
    @Test func aLostConnectionStopsTheDevice() throws {
        let (root, records, server) = try Self.tree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        server.failAt = "d.jpg"
        let result = DeviceVerifier(localRoot: root, serverDigests: server.digest).verify(records)
        #expect(result.files.count == 3)
        #expect(
            result.failure
                == .interrupted(
                    path: try RelativePath(validating: "d.jpg"), reason: "connection closed by the server", unchecked: 4
                ))
        #expect(result.failure?.description.hasSuffix("4 files not verified") == true)
    }

    @Test func theReportListsOnlyTheProblemsUnlessVerbose() throws {
        let (root, records, server) = try Self.tree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var result = DeviceVerifier(localRoot: root, serverDigests: server.digest).verify(records)
        result.algorithm = "SHA-256"
        let report = VerifyDeviceReport(name: "cam", result, verbose: false)
        #expect(report.status == "differs" && report.error == nil)
        #expect(report.stats == .init(verified: 2, differs: 2, missing: 2, unverifiable: 1))
        #expect(report.files.map(\.path) == ["b.jpg", "c.jpg", "d.jpg", "e.jpg", "g"])
        let lines = report.text.split(separator: "\n").map(String.init)
        #expect(lines[0] == "cam: 2 verified, 2 differ, 2 missing, 1 not verifiable (SHA-256)")
        #expect(
            lines[1]
                == "  differs         b.jpg: SHA-256 differs; the local file changed with its size and time kept (damage)"
        )
        #expect(lines[3] == "  missing_remote  d.jpg: not on the device (HASH /d.jpg: 550 No such file or directory)")
        #expect(VerifyDeviceReport(name: "cam", result, verbose: true).files.count == 7)

        let json = jsonText(VerifyDocument(devices: [report]))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(document["command"] as? String == "verify")
        let device = try #require((document["devices"] as? [[String: Any]])?.first)
        #expect(device["error"] is NSNull && device["algorithm"] as? String == "SHA-256")
        let files = try #require(device["files"] as? [[String: Any]])
        #expect(files[0]["changed"] as? String == "local" && files[0]["status"] as? String == "differs")
        #expect(files[3]["changed"] is NSNull && files[3]["status"] as? String == "unverifiable")
        let stats = try #require(device["stats"] as? [String: Int])
        #expect(stats == ["verified": 2, "differs": 2, "missing": 2, "unverifiable": 1])
    }

    @Test func aServerWithoutHashesFailsWithTheWayOut() {
        let report = VerifyDeviceReport(name: "cam", DeviceVerification(failure: .noHashCommand), verbose: false)
        #expect(report.status == "failed")
        #expect(
            report.text
                == "cam: FAILED — the server offers no hash command (HASH, XSHA256, XSHA1, XMD5, XCRC): "
                + "nothing to verify against; `ftpsync verify --local` checks the local files against the state")
        let clean = VerifyDeviceReport(name: "cam", DeviceVerification(), verbose: false)
        #expect(clean.status == "ok" && clean.text == "cam: 0 verified, 0 differ, 0 missing, 0 not verifiable")
    }

    @Test func theCommandParses() throws {
        let command = try #require(
            try FTPSyncCLI.parse(["verify", "c.yaml", "--device", "cam", "--json", "--local", "-v", "-j", "2"])
                as? VerifyCommand)
        #expect(command.configFile.config == "c.yaml" && command.selection.names == ["cam"])
        #expect(command.json && command.local && command.verbose && command.jobsOption.jobs == 2)
    }

    /// A device file whose size is no longer the one recorded (the server's digest covered
    /// another range) differs, the device's change (it was reported unverifiable).
    @Test func aDeviceFileOfAnotherSizeDiffersOnTheDeviceSide() throws {
        let (root, records, server) = try Self.tree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        server.answers["a.jpg"] = .sizeChanged(10)
        let verifier = DeviceVerifier(localRoot: root) { try server.digest($0) }
        let verdict = try verifier.verify(try #require(records.first { $0.path.string == "a.jpg" }))
        #expect(verdict.status == .differs && verdict.changed == .device)
        #expect(verdict.detail?.contains("10 bytes now") == true, "\(String(describing: verdict.detail))")
    }

    /// A name holding a line feed stays on its one line of the text report (it could fake a
    /// summary line; breaker review).
    @Test func aNameWithALineFeedCannotFakeAReportLine() throws {
        let verdict = FileVerdict(
            path: try RelativePath(validating: "evil\ncam: 0 verified"), status: .differs, changed: .local,
            detail: "SHA-256 differs")
        let report = VerifyDeviceReport(name: "cam", DeviceVerification(files: [verdict]), verbose: false)
        #expect(report.text.split(separator: "\n").count == 2, "\(report.text)")
        #expect(report.text.contains("evil\\x0acam: 0 verified"), "\(report.text)")
    }
}
