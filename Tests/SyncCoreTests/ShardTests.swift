// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import SyncCore
import Testing

/// Issue 24: `--shard K/N` — rendezvous hashing of device names over N shards.
@Suite struct ShardTests {
    /// A fleet of 60 devices with names as fleets have them.
    static let fleet: [String] = (0..<60).map { index in
        ["cam-", "nas-", "Recorder ", "plc_"][index % 4] + String(index)
    }

    @Test(arguments: [1, 2, 3, 4, 5, 7, 8, 16, 60, 61, 1000])
    func theShardsOfAFleetHoldEachDeviceExactlyOnce(count: Int) throws {
        var holders: [String: [Int]] = [:]
        for index in 0..<count {
            let shard = try #require(Shard(index: index, count: count))
            for name in Self.fleet where shard.holds(name) { holders[name, default: []].append(index) }
        }
        #expect(holders.count == Self.fleet.count)
        for name in Self.fleet { #expect(holders[name]?.count == 1, "\(name): \(holders[name] ?? [])") }
    }

    @Test func growingTheShardCountMovesDevicesOnlyIntoTheNewShard() {
        for count in 1..<40 {
            var moved = 0
            for name in Self.fleet {
                let before = Shard.index(of: name, count: count)
                let after = Shard.index(of: name, count: count + 1)
                if after != before {
                    #expect(after == count, "\(name): \(before)/\(count) went to \(after)/\(count + 1)")
                    moved += 1
                }
            }
            // About 60/(N+1) move; none moving at all would mean the new shard stays empty.
            if count < 10 { #expect(moved > 0, "\(count) -> \(count + 1): nothing moved") }
        }
    }

    @Test func aFleetSpreadsOverTheShards() {
        for count in [2, 4, 6] {
            var sizes = Array(repeating: 0, count: count)
            for name in Self.fleet { sizes[Shard.index(of: name, count: count)] += 1 }
            let fair = Self.fleet.count / count
            for size in sizes { #expect(size >= fair / 2 && size <= fair * 2, "\(count) shards: \(sizes)") }
        }
    }

    /// The assignment is part of the interface: a new version must put every device where the
    /// last one did, or a fleet's shards would each download the others' devices again. The
    /// values were checked against an independent implementation (Python, docs/cli.md "Shards").
    @Test(arguments: [
        ("cam-0", 4, 1), ("nas-1", 4, 3), ("Recorder 2", 4, 3), ("plc_3", 4, 1), ("front-camera", 2, 0),
        ("front-camera", 10, 6), ("摄像头-1", 4, 2), ("", 3, 2),
    ])
    func theAssignmentIsPinned(name: String, count: Int, index: Int) {
        #expect(Shard.index(of: name, count: count) == index)
    }

    @Test(arguments: [("0/1", 0, 1), ("3/4", 3, 4), ("0/10000", 0, 10_000), ("09/10", 9, 10)])
    func parsesKOfN(text: String, index: Int, count: Int) {
        #expect(Shard(parsing: text) == Shard(index: index, count: count))
        #expect(Shard(parsing: text)?.description == "\(index)/\(count)")
    }

    @Test(arguments: [
        "", "1", "4/4", "5/4", "-1/4", "0/0", "0/10001", "1/2/3", "a/b", "0/", "/4", " 1/4", "1/4 ", "+1/4", "0x1/4",
        "1.0/4", "99999999999999999999/4", "１/4",
    ])
    func refusesWhatIsNotAShard(text: String) {
        #expect(Shard(parsing: text) == nil)
    }
}
