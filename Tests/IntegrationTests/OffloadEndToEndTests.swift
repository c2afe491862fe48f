// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// `pull --remove-source` (issue 19, offload) against real servers, running the built binary:
/// the device files whose verified copy is here are deleted, what is held back stays, a later
/// `pull --delete` keeps every offloaded copy. Each of lftp's known `--Remove-source-files` bugs
/// has a test that would fail with it: deleting a file whose transfer failed (`cut-retr`),
/// deleting a file the device was still writing (`grow-after-retr`), deleting a source that was
/// skipped because the target exists (the conflict below). A server
/// that answers DELE and keeps the file (`lying-dele`) offloads nothing. Addresses 127.0.52.1
/// to 127.0.52.8.
@Suite(.serialized) struct OffloadEndToEndTests {
    static let environment = ["HOSTILE_PASS": "pw"]

    /// Bytes that differ from file to file (sampled ranges compare something).
    static func content(_ seed: Int, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed &* 7 &+ $0 >> 9) }
    }

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    static func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    /// The (kind, path, status) of the device's actions in a `--json` document.
    static func actions(_ document: [String: Any]) -> [(kind: String, path: String, status: String)] {
        let device = (document["devices"] as? [[String: Any]])?.first ?? [:]
        return (device["actions"] as? [[String: Any]] ?? []).map {
            ($0["kind"] as? String ?? "", $0["path"] as? String ?? "", $0["status"] as? String ?? "")
        }
    }

    static func notes(_ document: [String: Any]) -> [String] {
        ((document["devices"] as? [[String: Any]])?.first?["notes"] as? [String]) ?? []
    }

    static func offloaded(_ document: [String: Any]) -> [String] {
        actions(document).filter { $0.kind == "delete_remote" }.map(\.path).sorted()
    }

    /// The lab servers: LIST-only (vsftpd), MLSD (pyftpdlib), and one offering HASH (proftpd
    /// with mod_digest: the server's hash verifies the copy instead of sampled bytes).
    static let labs: [(FTPServer.Kind, String, [String])] = [
        (.pyftpdlib, "127.0.52.1", []), (.vsftpd, "127.0.52.2", []), (.proftpd, "127.0.52.3", ["--digest"]),
    ]

    @Test(arguments: labs)
    func verifiedFilesLeaveTheDeviceAndWhatIsHeldBackStays(kind: FTPServer.Kind, address: String, options: [String])
        throws
    {
        let work = try makeTemporaryFolder("offload")
        let served = work + "/served"
        let mirror = work + "/mirror"
        let old = Push.minute(daysAgo: 2)
        try writeFile(served + "/DCIM/100/a.jpg", Self.content(1, 40_000), modified: old)
        try writeFile(served + "/DCIM/100/b.jpg", Self.content(2, 3_000), modified: old)
        try writeFile(served + "/DCIM/young.jpg", Self.content(3, 5_000), modified: Date().timeIntervalSince1970)
        try writeFile(served + "/DCIM/skip.tmp", Self.content(4, 5_000), modified: old)
        try writeFile(served + "/there.jpg", Self.content(5, 6_000), modified: old)
        try FileManager.default.createDirectory(atPath: served + "/EMPTY", withIntermediateDirectories: true)
        // lftp's "skipped as existing" bug: a local file of that name, other bytes, no record.
        try writeFile(mirror + "/cam/there.jpg", Self.content(6, 6_001), modified: old)
        let server = try FTPServer(kind, root: served, address: address, options: options)
        defer { server.stop() }
        let config = work + "/device.yaml"
        let keys = "    remove_source: true\n    min_age: 600\n    exclude: [\"*.tmp\"]\n"
        try ("local: \(mirror)\ndevices:\n" + server.deviceYAML(name: "cam", extra: keys))
            .write(toFile: config, atomically: true, encoding: .utf8)

        // The dry run shows the offloads (files, then the folder they empty) and deletes nothing.
        // DCIM keeps young.jpg and skip.tmp: it is not planned (a breaker found the dry run
        // planning it, and the real run's RMD failing on it).
        let dry = try ftpsync(["pull", config, "--dry-run", "--json", "--remove-source-folders"])
        #expect(dry.status == 0, "\(dry.stderr)")
        let planned = Self.json(dry.stdout)
        #expect(Self.offloaded(planned) == ["DCIM/100", "DCIM/100/a.jpg", "DCIM/100/b.jpg"], "\(dry.stdout)")
        #expect(Self.actions(planned).filter { $0.kind == "delete_remote" }.allSatisfy { $0.status == "planned" })
        #expect(Self.exists(served + "/DCIM/100/a.jpg") && !Self.exists(mirror + "/cam/DCIM/100/a.jpg"))

        let run = try ftpsync(["pull", config, "--json", "--no-progress", "--remove-source-folders"])
        #expect(run.status == 0, "\(run.stderr)\n\(run.stdout)")
        let done = Self.json(run.stdout)
        let deleted = Self.actions(done).filter { $0.kind == "delete_remote" }
        #expect(deleted.map(\.path).sorted() == ["DCIM/100", "DCIM/100/a.jpg", "DCIM/100/b.jpg"], "\(run.stdout)")
        #expect(deleted.allSatisfy { $0.status == "done" })
        #expect(!Self.notes(done).contains { $0.hasPrefix("DCIM: not offloaded") }, "not planned: nothing to note")
        // Gone from the device, here byte for byte.
        #expect(!Self.exists(served + "/DCIM/100"))
        #expect(Push.bytes(mirror + "/cam/DCIM/100/a.jpg") == Self.content(1, 40_000))
        #expect(Push.bytes(mirror + "/cam/DCIM/100/b.jpg") == Self.content(2, 3_000))
        // Held back: too young, excluded, a conflict (both kept here), an empty folder, the root.
        for kept in ["DCIM/young.jpg", "DCIM/skip.tmp", "there.jpg", "EMPTY"] {
            #expect(Self.exists(served + "/" + kept), "\(kept)")
        }
        let deletes = server.commands().filter { $0.uppercased().hasPrefix("DELE ") }
        #expect(deletes.count == 2, "\(deletes)")

        // The conflict kept the local file as a conflict copy and downloaded the device's: the
        // next run finds that one in sync and offloads it (the conflict copy stays here).
        let again = try ftpsync(["pull", config, "--no-progress"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(server.commands().filter { $0.uppercased().hasPrefix("DELE ") }.count == 3)
        #expect(!Self.exists(served + "/there.jpg"))
        #expect(Push.bytes(mirror + "/cam/there.jpg") == Self.content(5, 6_000))
        let copies = try FileManager.default.contentsOfDirectory(atPath: mirror + "/cam").filter {
            $0.hasPrefix("there.conflict-")
        }
        #expect(copies.count == 1 && copies.allSatisfy { Push.bytes(mirror + "/cam/" + $0) == Self.content(6, 6_001) })

        // Never lose a file: pull --delete (with or without the offload) keeps the copies of
        // the offloaded files, although the device no longer has them.
        for extra in [["--delete"], ["--delete", "--remove-source"]] {
            let later = try ftpsync(["pull", config, "--no-progress", "--json"] + extra)
            #expect(later.status == 0, "\(later.stderr)")
            #expect(
                !Self.actions(Self.json(later.stdout)).contains { $0.path.hasPrefix("DCIM/100") }, "\(later.stdout)")
            #expect(Push.bytes(mirror + "/cam/DCIM/100/a.jpg") == Self.content(1, 40_000))
            #expect(Push.bytes(mirror + "/cam/DCIM/100/b.jpg") == Self.content(2, 3_000))
        }
    }

    /// The text report lists the offloads as `delete_remote` lines and counts them deleted.
    @Test func theTextReportSaysWhatWasOffloaded() throws {
        let work = try makeTemporaryFolder("offload-text")
        let served = work + "/served"
        try writeFile(served + "/a.jpg", Self.content(1, 9_000), modified: Push.minute())
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.52.4")
        defer { server.stop() }
        let config = try Push.config(server, local: work + "/mirror", at: work)
        let run = try ftpsync(["pull", config, "--no-progress", "--remove-source"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("delete_remote a.jpg"), "\(run.stdout)")
        // Found by a first user: "1 deleted" did not say where.
        #expect(run.stdout.contains("1 deleted on the device"), "\(run.stdout)")
        #expect(!Self.exists(served + "/a.jpg") && Self.exists(work + "/mirror/cam/a.jpg"))
        // A push never offloads: the option is refused before anything runs.
        let push = try ftpsync(["push", config, "--remove-source"])
        #expect(push.status == 2 && push.stderr.contains("pull only"), "\(push.stderr)")
    }

    /// lftp deleted sources whose transfer failed: here a download the server cuts every time
    /// (a reset data connection, 426) leaves its device file; the good one is offloaded.
    @Test func aFailedDownloadLeavesTheDeviceFile() throws {
        let work = try makeTemporaryFolder("offload-cut")
        let served = work + "/served"
        try writeFile(served + "/good.jpg", Self.content(1, 30_000), modified: Push.minute())
        try writeFile(served + "/cut.jpg", Self.content(2, 300_000), modified: Push.minute())
        let server = try HostileServer("cut-retr", address: "127.0.52.5", root: served)
        defer { server.stop() }
        let config = try server.config(local: work + "/mirror", at: work, retries: 1)
        for _ in 0..<2 {
            let run = try ftpsync(
                ["pull", config, "--remove-source", "--json", "--no-progress"], environment: Self.environment)
            #expect(run.status == 1, "\(run.stderr)")
            let document = Self.json(run.stdout)
            #expect(Self.notes(document).contains { $0.hasPrefix("cut.jpg: not offloaded") }, "\(run.stdout)")
            #expect(Self.exists(served + "/cut.jpg") && !Self.exists(work + "/mirror/cam/cut.jpg"))
        }
        #expect(!Self.exists(served + "/good.jpg"))
        #expect(Push.bytes(work + "/mirror/cam/good.jpg") == Self.content(1, 30_000))
    }

    /// lftp deleted files the device was still writing: a file that grows after its download
    /// (between the listing and the DELE) stays on the device, with its new bytes.
    @Test func aFileThatChangedSinceTheListingStays() throws {
        let work = try makeTemporaryFolder("offload-grow")
        let served = work + "/served"
        try writeFile(served + "/grow.mov", Self.content(1, 100_000), modified: Push.minute())
        try writeFile(served + "/still.mov", Self.content(2, 100_000), modified: Push.minute())
        let server = try HostileServer("grow-after-retr", address: "127.0.52.6", root: served)
        defer { server.stop() }
        let config = try server.config(local: work + "/mirror", at: work)
        let run = try ftpsync(
            ["pull", config, "--remove-source", "--json", "--no-progress"], environment: Self.environment)
        #expect(run.status == 0, "\(run.stderr)")
        let document = Self.json(run.stdout)
        #expect(Self.offloaded(document) == ["still.mov"], "\(run.stdout)")
        #expect(
            Self.notes(document).contains("grow.mov: not offloaded, it changed on the device since it was listed"),
            "\(run.stdout)")
        #expect(Push.bytes(served + "/grow.mov")?.count == 100_004)
        #expect(!Self.exists(served + "/still.mov"))
        #expect(Push.bytes(work + "/mirror/cam/grow.mov") == Self.content(1, 100_000))
    }

    /// Found by a breaker: a server that answers DELE with 250 and keeps the file had it
    /// counted as offloaded, its record marked so. Now SIZE asks for it after the DELE: the
    /// file is a note, not an offload, and the next run tries again.
    @Test func aDeleteTheServerDidNotCarryOutIsNoOffload() throws {
        let work = try makeTemporaryFolder("offload-lying-dele")
        let served = work + "/served"
        try writeFile(served + "/good.jpg", Self.content(1, 30_000), modified: Push.minute())
        try writeFile(served + "/stuck.jpg", Self.content(2, 30_000), modified: Push.minute())
        let server = try HostileServer("lying-dele", address: "127.0.52.8", root: served)
        defer { server.stop() }
        let config = try server.config(local: work + "/mirror", at: work)
        for _ in 0..<2 {
            let run = try ftpsync(
                ["pull", config, "--remove-source", "--json", "--no-progress"], environment: Self.environment)
            #expect(run.status == 0, "\(run.stderr)")
            let document = Self.json(run.stdout)
            #expect(
                Self.notes(document).contains(
                    "stuck.jpg: not offloaded, the server answered DELE but still has the file"),
                "\(run.stdout)")
            #expect(
                !Self.actions(document).contains {
                    $0.kind == "delete_remote" && $0.path == "stuck.jpg" && $0.status == "done"
                }, "\(run.stdout)")
        }
        #expect(!Self.exists(served + "/good.jpg"))
        #expect(Self.exists(served + "/stuck.jpg"))
        #expect(Push.bytes(work + "/mirror/cam/stuck.jpg") == Self.content(2, 30_000))
    }

    /// The automatic delete limit (50) does not count offloads; a `--max-delete` given does.
    @Test func anExplicitMaxDeleteCountsTheOffloads() throws {
        let work = try makeTemporaryFolder("offload-max")
        let served = work + "/served"
        for index in 0..<60 {
            try writeFile(served + "/f\(index).jpg", Self.content(index, 100), modified: Push.minute())
        }
        let server = try HostileServer("folder", address: "127.0.52.7", root: served)
        defer { server.stop() }
        let config = try server.config(local: work + "/mirror", at: work)
        let refused = try ftpsync(
            ["pull", config, "--remove-source", "--max-delete", "59", "--no-progress"], environment: Self.environment)
        #expect(refused.status == 4, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stdout.contains("offloads 60 device files"), "\(refused.stdout)")
        #expect(Self.exists(served + "/f0.jpg") && !Self.exists(work + "/mirror/cam/f0.jpg"))
        let run = try ftpsync(["pull", config, "--remove-source", "--no-progress"], environment: Self.environment)
        #expect(run.status == 0, "\(run.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: served)
        #expect(left.isEmpty, "\(left)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: work + "/mirror/cam").count == 60)
    }
}
