// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 23: `ftpsync apply PLAN.json` against real servers. The untouched plan runs exactly;
/// a file changed after the review is refused (exit 1) while the rest is carried out; nothing
/// unplanned happens; a plan made with another configuration, or against another server at the
/// device's address, is refused. Pull, push and sync plans. Addresses 127.0.26.1–4.
@Suite(.serialized) struct ApplyEndToEndTests {
    /// `push --dry-run --json` written to `work/plan.json`; returns its path.
    static func plan(_ arguments: [String], at work: String) throws -> String {
        let dry = try ftpsync(arguments + ["--dry-run", "--json"])
        #expect(dry.status == 0, "\(dry.stdout)\(dry.stderr)")
        let path = work + "/plan.json"
        try dry.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The commands the server received after the first `from` that change something there.
    static func changes(_ server: FTPServer, from: Int) -> [String] {
        server.commands().dropFirst(from).filter { line in
            Push.changing.contains { line.uppercased().hasPrefix($0 + " ") }
        }
    }

    @Test func anUntouchedPushPlanRunsExactly() throws {
        let work = try makeTemporaryFolder("apply-push")
        let served = work + "/served"
        let mirror = work + "/mirror"
        let here = mirror + "/cam"
        try TwoWay.write(here, "a.txt", "first", minutesAgo: 30)
        try TwoWay.write(here, "sub/b.txt", "second", minutesAgo: 30)
        try TwoWay.write(served, "old.txt", "gone here", minutesAgo: 30)
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.26.1")
        defer { server.stop() }
        let config = try TwoWay.config(server, mirror: mirror, at: work)
        let plan = try Self.plan(["push", config, "--delete"], at: work)
        let before = server.commands().count

        let applied = try ftpsync(["apply", plan, "--json"])
        #expect(applied.status == 0, "\(applied.stdout)\(applied.stderr)")
        #expect(applied.stdout.contains("\"command\" : \"apply\""))
        let actions = Push.actions(applied.stdout)
        #expect(
            actions.map { "\($0.kind) \($0.path) \($0.status)" }.sorted() == [
                "delete_remote old.txt done", "mkdir_remote sub done", "upload a.txt done", "upload sub/b.txt done",
            ])
        #expect(TwoWay.texts(served) == ["a.txt": "first", "sub/b.txt": "second"])
        let changed = Self.changes(server, from: before)
        #expect(changed.filter { $0.uppercased().hasPrefix("STOR") }.count == 2, "\(changed)")
        #expect(changed.filter { $0.uppercased().hasPrefix("DELE") }.count == 1, "\(changed)")
        // Applied again, everything is done already: refused as no longer planned, nothing sent.
        let again = try ftpsync(["apply", plan, "--json"])
        #expect(again.status == 1)
        #expect(Push.actions(again.stdout).allSatisfy { $0.status == "refused" })
        #expect(again.stdout.contains("nothing to do for it now"))
        #expect(again.stdout.contains("\"bytes\" : 5"), "a refused upload shows its planned size")
        #expect(Self.changes(server, from: before).count == changed.count)
    }

    @Test func aFileChangedAfterTheReviewIsRefusedAndNothingUnplannedHappens() throws {
        let work = try makeTemporaryFolder("apply-changed")
        let served = work + "/served"
        let mirror = work + "/mirror"
        let here = mirror + "/cam"
        try TwoWay.write(here, "kept.txt", "as reviewed", minutesAgo: 30)
        try TwoWay.write(here, "edited.txt", "reviewed version", minutesAgo: 30)
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.26.2")
        defer { server.stop() }
        let config = try TwoWay.config(server, mirror: mirror, at: work)
        let plan = try Self.plan(["push", config], at: work)
        // After the review: one planned file changes, one new file appears.
        try TwoWay.write(here, "edited.txt", "edited after the review", minutesAgo: 1)
        try TwoWay.write(here, "unplanned.txt", "never reviewed", minutesAgo: 1)

        let applied = try ftpsync(["apply", plan, "--json"])
        #expect(applied.status == 1, "\(applied.stdout)")
        let actions = Push.actions(applied.stdout)
        #expect(actions.contains { $0.path == "kept.txt" && $0.status == "done" })
        #expect(actions.contains { $0.path == "edited.txt" && $0.status == "refused" })
        #expect(!actions.contains { $0.path == "unplanned.txt" })
        #expect(applied.stdout.contains("changed since the plan: the file's size"))
        #expect(TwoWay.texts(served) == ["kept.txt": "as reviewed"])
        #expect(Push.deviceStatus(applied.stdout) == "partial")

        #expect(applied.stdout.contains("\"failed\" : 1"), "a refused action counts as not done")
        // Options that shape the plan are the plan's; a plan is never taken to another server.
        let usage = try ftpsync(["apply", plan, "--delete"])
        #expect(usage.status == 2 && usage.stderr.contains("--delete is the plan's to say"))
        let accept = try ftpsync(["apply", plan, "--accept-new-identity"])
        #expect(accept.status == 2 && accept.stderr.contains("does not go with apply"))
    }

    @Test func anotherConfigurationOrServerIsRefused() throws {
        let work = try makeTemporaryFolder("apply-other")
        let served = work + "/served"
        let mirror = work + "/mirror"
        try TwoWay.write(mirror + "/cam", "a.txt", "ours", minutesAgo: 30)
        var server = try FTPServer(.pyftpdlib, root: served, address: "127.0.26.3")
        let config = try TwoWay.config(server, mirror: mirror, at: work)
        let plan = try Self.plan(["push", config], at: work)

        // The configuration edited after the review: the whole plan is refused.
        let original = try String(contentsOfFile: config, encoding: .utf8)
        try (original + "# edited\n").write(toFile: config, atomically: true, encoding: .utf8)
        let edited = try ftpsync(["apply", plan])
        #expect(edited.status == 2, "\(edited.stderr)")
        #expect(edited.stderr.contains("the plan was made with another configuration"))
        try original.write(toFile: config, atomically: true, encoding: .utf8)

        // Another server at the device's address and port: the device is refused, nothing sent.
        let port = server.port
        server.stop()
        server = try FTPServer(.vsftpd, root: served, address: "127.0.26.3", port: port)
        defer { server.stop() }
        let other = try ftpsync(["apply", plan, "--json"])
        #expect(other.status == 4, "\(other.stdout)\(other.stderr)")
        #expect(other.stdout.contains("another server") && other.stdout.contains("make a new plan"), "\(other.stdout)")
        #expect(TwoWay.texts(served).isEmpty)
        // A file that is no plan at all.
        let notAPlan = try ftpsync(["apply", config])
        #expect(notAPlan.status == 2 && notAPlan.stderr.contains("is not a plan"))
    }

    /// A reviewed upload over the device's file is refused once that file changed (a push's
    /// local-wins, whose conflict and upload rest on it); a tampered plan whose options resolve a
    /// conflict otherwise is refused; a folder a pull plan deletes keeps what appeared in it; a
    /// plan older than the trash's retention keeps the trash of its run.
    @Test func whatAReviewRestsOnIsChecked() throws {
        let work = try makeTemporaryFolder("apply-rests")
        let served = work + "/served"
        let mirror = work + "/mirror"
        let here = mirror + "/cam"
        try TwoWay.write(here, "c.txt", "base", minutesAgo: 90)
        try TwoWay.write(served, "old/o1.txt", "old", minutesAgo: 90)
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.26.5")
        defer { server.stop() }
        let config = try TwoWay.config(server, mirror: mirror, at: work)
        try (String(contentsOfFile: config, encoding: .utf8) + "trash_retention: 2s\n").write(
            toFile: config, atomically: true, encoding: .utf8)
        #expect(try ftpsync(["sync", config]).status == 0)

        // A push local-wins plan, then the device's file edited: refused, the edit kept.
        try TwoWay.write(here, "c.txt", "ours, changed", minutesAgo: 30)
        try TwoWay.write(served, "c.txt", "theirs v2", minutesAgo: 20)
        let push = try Self.plan(["push", config, "--on-conflict", "local-wins"], at: work)
        try TwoWay.write(served, "c.txt", "theirs v3, later", minutesAgo: 10)
        let applied = try ftpsync(["apply", push, "--json"])
        #expect(applied.status == 1, "\(applied.stdout)")
        #expect(applied.stdout.contains("the device's file's size"))
        #expect(TwoWay.texts(served)["c.txt"] == "theirs v3, later")

        // A sync plan keep-both, its options tampered to local-wins: refused.
        let sync = try Self.plan(["sync", config], at: work)
        var text = try String(contentsOfFile: sync, encoding: .utf8)
        text = text.replacingOccurrences(
            of: "\"arguments\" : [\n\n    ]", with: "\"arguments\" : [\"--on-conflict\", \"local-wins\"]")
        try text.write(toFile: sync, atomically: true, encoding: .utf8)
        let tampered = try ftpsync(["apply", sync, "--json"])
        #expect(tampered.status == 1, "\(tampered.stdout)")
        #expect(TwoWay.texts(served)["c.txt"] == "theirs v3, later")

        // A pull --delete plan deleting old/, then a file put in old/ here: kept, not trashed.
        #expect(try ftpsync(["sync", config, "--on-conflict", "remote-wins"]).status == 0)
        try FileManager.default.removeItem(atPath: served + "/old")
        let pull = try Self.plan(["pull", config, "--delete"], at: work)
        try TwoWay.write(here, "old/new.txt", "new here", minutesAgo: 1)
        sleep(3)
        _ = try ftpsync(["apply", pull, "--json"])
        #expect(TwoWay.texts(here)["old/new.txt"] == "new here")
        // The run's trash (old/o1.txt) is its own, not purged as older than the plan's retention.
        #expect(treeListing(mirror + "/.ftpsync/trash").contains { $0.key.hasSuffix("cam/old/o1.txt") })
    }

    /// Pull and sync plans apply the same way; a sync plan's keep-both copy keeps its name.
    @Test func pullAndSyncPlans() throws {
        let work = try makeTemporaryFolder("apply-sync")
        let served = work + "/served"
        let mirror = work + "/mirror"
        let here = mirror + "/cam"
        try TwoWay.write(served, "f.txt", "base", minutesAgo: 60)
        let server = try FTPServer(.pyftpdlib, root: served, address: "127.0.26.4")
        defer { server.stop() }
        let config = try TwoWay.config(server, mirror: mirror, at: work)
        let pullPlan = try Self.plan(["pull", config], at: work)
        let pulled = try ftpsync(["apply", pullPlan, "--json"])
        #expect(pulled.status == 0, "\(pulled.stdout)")
        #expect(TwoWay.texts(here) == ["f.txt": "base"])

        try TwoWay.write(served, "f.txt", "changed there", minutesAgo: 20)
        try TwoWay.write(here, "f.txt", "changed here too", minutesAgo: 10)
        let syncPlan = try Self.plan(["sync", config], at: work)
        let planned = Push.actions(try String(contentsOfFile: syncPlan, encoding: .utf8))
        let copy = try #require(planned.first { $0.path.hasPrefix("f.conflict-") }?.path)
        sleep(1)
        let synced = try ftpsync(["apply", syncPlan, "--json"])
        #expect(synced.status == 0, "\(synced.stdout)")
        #expect(TwoWay.texts(here) == ["f.txt": "changed here too", copy: "changed there"])
        #expect(TwoWay.texts(here) == TwoWay.texts(served))
    }
}
