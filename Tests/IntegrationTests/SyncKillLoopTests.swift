// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 23, "Done when": `ftpsync sync --delete` SIGKILLed at random moments while both sides
/// keep changing (new, rewritten, moved and deleted files, here and on the device). After every
/// kill each file on either side holds bytes one side once had; after one more run both sides
/// are identical and every version that no later change on its own side replaced is on both.
///
/// `FTPSYNC_KILL_LOOPS` sets the kills (default 50); `FTPSYNC_KILL_SEED` replays a seed.
/// Address 127.0.25.4.
@Suite(.serialized) struct SyncKillLoopTests {
    typealias K = KillLoopTests

    /// Changes the tree at `root` (`KillLoopTests.mutate`) and brings `alive` up to date: the
    /// contents the change removed from this side go, the new ones come.
    /// `alive` maps each content to where it was written (for the messages).
    static func change(
        _ root: String, _ random: inout K.Random, clock: inout Double, alive: inout [[UInt8]: String], round: Int
    ) throws {
        // An upload's temporary (`.NAME.ftpsync-part`) is never synced: what a change does to one
        // (the mutation picks any file) is no version of the user's.
        let real = { (files: [String: FileFacts]) in
            files.filter { !$0.key.hasSuffix(".ftpsync-part") }.compactMapValues(\.content)
        }
        let before = real(K.files(root))
        try K.mutate(root, &random, clock: &clock)
        let after = real(K.files(root))
        let (was, now) = (Set(before.values), Set(after.values))
        for gone in was.subtracting(now) { alive[gone] = nil }
        for (path, content) in after where !was.contains(content) {
            alive[content] = "\(path) (\(content.count) bytes) written in \(root) before kill \(round)"
        }
    }

    @Test func killsOverSyncsOfTwoChangingSidesLoseNothing() throws {
        let seed = K.seed()
        var random = K.Random(seed: seed)
        let work = try makeTemporaryFolder("kill-loop-sync")
        let served = work + "/served"
        let mirror = work + "/mirror"
        let here = mirror + "/cam"
        // Half the start tree on each side.
        let start = K.startTree(&random)
        try writeTree(start.enumerated().filter { $0.offset % 2 == 0 }.map(\.element), at: served)
        try writeTree(start.enumerated().filter { $0.offset % 2 == 1 }.map(\.element), at: here)
        var clock = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 43_200
        let server = try FTPServer(
            .pyftpdlib, root: served, address: "127.0.25.4", options: ["--throttle", "20000000"])
        defer { server.stop() }
        let config = try TwoWay.config(server, mirror: mirror, at: work)
        let sync = ["sync", config, "--delete", "--max-delete", "-1", "--no-progress", "-q"]

        var alive = Dictionary(start.map { ($0.content, "\($0.path) of the start tree") }) { first, _ in first }
        var versions = Set(alive.keys)
        var moments: [String] = []
        for round in 0..<K.kills {
            if round % 3 == 0 {
                try Self.change(
                    random.below(2) == 0 ? here : served, &random, clock: &clock, alive: &alive, round: round)
                versions.formUnion(K.files(here).values.compactMap(\.content))
                versions.formUnion(K.files(served).values.compactMap(\.content))
            }
            moments.append(try K.runAndKill(sync, &random, log: server.logPath))
            for (side, root) in [("here", here), ("on the device", served)] {
                for (path, facts) in K.files(root) where !path.hasSuffix(".ftpsync-part") {
                    #expect(
                        facts.content.map(versions.contains) == true,
                        "seed \(seed), kill \(round): \(path) \(side) holds bytes no side ever had")
                }
            }
        }
        let final = try ftpsync(sync)
        #expect(final.status == 0, "seed \(seed), kills at \(moments): \(final.stdout)\(final.stderr)")
        let local = K.files(here)
        let remote = K.files(served).filter { !$0.key.hasSuffix(".ftpsync-part") }
        #expect(local.keys.sorted() == remote.keys.sorted(), "seed \(seed)")
        for (path, facts) in remote {
            #expect(local[path]?.content == facts.content, "seed \(seed): content of \(path)")
        }
        let kept = Set(local.values.compactMap(\.content))
        let lost = alive.filter { !kept.contains($0.key) }.values.sorted()
        #expect(lost.isEmpty, "seed \(seed), kills at \(moments): lost \(lost)")
        let again = try ftpsync(sync.filter { $0 != "-q" } + ["--json"])
        #expect(again.status == 0, "seed \(seed): \(again.stdout)")
        #expect(Push.actions(again.stdout).isEmpty, "seed \(seed): a run after the final one does nothing")
    }
}
