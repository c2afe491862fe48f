// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 24: `--shard K/N` with the built binary against a real server. Eight devices share
/// one pyftpdlib server (a folder each); each shard has its own local tree. Addresses
/// 127.0.27.1–127.0.27.9 belong to this suite.
@Suite(.serialized) struct ShardEndToEndTests {
    static let names = (0..<8).map { "dev-\($0)" }

    private func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }

    private func deviceNames(_ document: [String: Any]) -> Set<String> {
        Set((document["devices"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String })
    }

    @Test func twoShardsPullTheFleetOnceEachAndATreeOfAnotherShardIsRefused() throws {
        let fleet = try OneServerFleet("shard", names: Self.names, address: "127.0.27.1", roots: ["shard0", "shard1"])
        defer { fleet.server.stop() }
        let a = fleet.configs["shard0"]!
        let b = fleet.configs["shard1"]!
        let metrics = fleet.work + "/metrics-0.prom"

        let first = try ftpsync(["pull", a, "--shard", "0/2", "--json", "--metrics-file", metrics])
        #expect(first.status == 0, "\(first.stderr)")
        let second = try ftpsync(["pull", b, "--shard", "1/2", "--json"])
        #expect(second.status == 0, "\(second.stderr)")
        let zero = fleet.pulled("shard0")
        let one = fleet.pulled("shard1")
        // Every device in exactly one shard, and each run ran only its own.
        #expect(zero.union(one) == Set(Self.names))
        #expect(zero.isDisjoint(with: one))
        #expect(!zero.isEmpty && !one.isEmpty)
        #expect(deviceNames(json(first.stdout)) == zero)
        #expect(json(first.stdout)["shard"] as? String == "0/2")
        #expect(json(second.stdout)["shard"] as? String == "1/2")
        // The metrics file: this shard's devices only, every sample labelled with the shard.
        let text = (try? String(contentsOfFile: metrics, encoding: .utf8)) ?? ""
        let samples = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(!samples.isEmpty)
        for sample in samples { #expect(sample.contains("shard=\"0\""), "\(sample)") }
        for name in one { #expect(!text.contains("device=\"\(name)\""), "\(name) is shard 1's") }
        #expect(text.contains("ftpsync_run_exit_code{shard=\"0\"} 0"))

        // Shard 0 on the tree shard 1 wrote: refused before any device, also as a dry run.
        for extra in [[], ["--dry-run"]] {
            let wrong = try ftpsync(["pull", b, "--shard", "0/2", "--json"] + extra)
            #expect(wrong.status == 2, "\(extra): \(wrong.stderr)")
            #expect(wrong.stderr.contains("was last synced as shard 1/2"), "\(wrong.stderr)")
            #expect(wrong.stderr.contains("its own local folder"), "\(wrong.stderr)")
            #expect(json(wrong.stdout)["error"] as? String != nil)
            #expect(fleet.pulled("shard1") == one)
        }
        // Push and sync refuse it too.
        for command in ["push", "sync"] {
            let wrong = try ftpsync([command, b, "--shard", "0/2", "--dry-run"])
            #expect(wrong.status == 2, "\(command): \(wrong.stderr)")
        }

        // Growing to 3 shards keeps index 0's tree: its devices are a subset, nothing to fetch.
        let grown = try ftpsync(["pull", a, "--shard", "0/3", "--json"])
        #expect(grown.status == 0, "\(grown.stderr)")
        let grownDevices = deviceNames(json(grown.stdout))
        #expect(grownDevices.isSubset(of: zero))
        let totals = json(grown.stdout)["totals"] as? [String: Any]
        #expect(totals?["files_transferred"] as? Int == 0, "\(grown.stdout)")

        // An unsharded run is not refused, and leaves the tree shard 0's.
        let whole = try ftpsync(["pull", a, "--dry-run", "--json"])
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(deviceNames(json(whole.stdout)) == Set(Self.names))
        #expect(json(whole.stdout)["shard"] is NSNull)
        #expect(whole.stderr.contains("was last synced as shard 0/3, and this run had no --shard"), "\(whole.stderr)")
        // status says whose tree it is when asked without the shard, or with another.
        let status = try ftpsync(["status", a])
        #expect(status.status == 0)
        #expect(status.stderr.contains("was last synced as shard 0/3; without --shard"), "\(status.stderr)")
        let own = try ftpsync(["status", a, "--shard", "0/3"])
        #expect(!own.stderr.contains("note"), "\(own.stderr)")
        let still = try ftpsync(["pull", a, "--shard", "1/2"])
        #expect(still.status == 2, "\(still.stderr)")
    }

    @Test func aDeviceOutsideTheShardAndABadShardAreUsageErrors() throws {
        let fleet = try OneServerFleet("shard-usage", names: Self.names, address: "127.0.27.1", roots: ["tree"])
        defer { fleet.server.stop() }
        let config = fleet.configs["tree"]!
        // Which shard each device is in, as status sees it (status reads no server).
        var shardOf: [String: Int] = [:]
        for index in 0..<2 {
            let status = try ftpsync(["status", config, "--shard", "\(index)/2", "--json"])
            #expect(status.status == 0, "\(status.stderr)")
            for name in deviceNames(json(status.stdout)) { shardOf[name] = index }
        }
        #expect(Set(shardOf.keys) == Set(Self.names))
        let outsider = try #require(Self.names.first { shardOf[$0] == 1 })
        let named = try ftpsync(["pull", config, "--shard", "0/2", "--device", outsider])
        #expect(named.status == 2)
        #expect(named.stderr.contains("device '\(outsider)' is in shard 1/2"), "\(named.stderr)")
        #expect(fleet.pulled("tree").isEmpty)
        for bad in ["2/2", "0/0", "x", "-1/2", "0/10001"] {
            let result = try ftpsync(["pull", config, "--shard", bad])
            #expect(result.status == 2, "\(bad)")
            #expect(result.stderr.contains("K/N"), "\(bad): \(result.stderr)")
        }
        let twice = try ftpsync(["pull", config, "--shard", "0/2", "--shard", "1/2"])
        #expect(twice.status == 2)
        #expect(twice.stderr.contains("--shard is given 2 times"), "\(twice.stderr)")
        // check connects to the shard's devices only.
        let check = try ftpsync(["check", config, "--shard", "1/2", "--json"])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(deviceNames(json(check.stdout)) == Set(shardOf.filter { $0.value == 1 }.keys))
        // More shards than devices: an empty shard runs nothing and succeeds.
        let runs = try (0..<12).map { try ftpsync(["pull", config, "--shard", "\($0)/12", "--dry-run", "--json"]) }
        #expect(runs.allSatisfy { $0.status == 0 })
        let empty = runs.filter { deviceNames(json($0.stdout)).isEmpty }
        #expect(empty.count >= 4)
        #expect(empty.allSatisfy { $0.stderr.contains("holds none of the 8 devices") }, "\(empty.first?.stderr ?? "")")
        // apply carries out a plan as it was made: no --shard.
        let apply = try ftpsync(["apply", fleet.work + "/plan.json", config, "--shard", "0/2"])
        #expect(apply.status == 2)
        #expect(apply.stderr.contains("--shard"), "\(apply.stderr)")
    }
}
