// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// One shard of a fleet: the devices that rendezvous hashing (highest random weight) of their
/// names gives to shard `index` of `count` (`--shard K/N`, K 0-based as Kubernetes'
/// `JOB_COMPLETION_INDEX`).
///
/// Each device goes to the shard whose weight for its name is highest. The weights are a pure
/// function of the name's UTF-8 bytes and the shard index, the same on every machine, run and
/// version of ftpsync (the tests pin them). Going from N to N+1 shards adds one weight per name,
/// so a device moves only when the new shard's weight beats all others: only into the new shard,
/// about 1/(N+1) of the fleet.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// The most shards a fleet may have.
    public static let maxCount = 10_000

    /// This shard's index, 0 ..< `count`.
    public let index: Int
    /// How many shards the fleet has, 1 ... `maxCount`.
    public let count: Int

    /// The shard `index` of `count`; nil when `count` is outside 1 ... `maxCount` or `index`
    /// outside 0 ..< `count`.
    public init?(index: Int, count: Int) {
        guard (1...Shard.maxCount).contains(count), (0..<count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Reads `K/N` (`2/4`): two decimal numbers of at most 5 digits; nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2,
            parts.allSatisfy({ !$0.isEmpty && $0.count <= 5 && $0.utf8.allSatisfy { (48...57).contains($0) } }),
            let index = Int(parts[0]), let count = Int(parts[1])
        else { return nil }
        self.init(index: index, count: count)
    }

    /// `K/N`.
    public var description: String { "\(index)/\(count)" }

    /// Whether the device called `name` belongs to this shard.
    public func holds(_ name: String) -> Bool {
        Shard.index(of: name, count: count) == index
    }

    /// The shard (0 ..< `count`) of the device called `name` when the fleet has `count` shards;
    /// 0 when `count` < 2. Ties (never seen; 64-bit weights) go to the lower index.
    public static func index(of name: String, count: Int) -> Int {
        guard count > 1 else { return 0 }
        let key = FNV1a.hash(name.utf8)
        var best = 0
        var bestWeight = weight(key: key, shard: 0)
        for shard in 1..<min(count, maxCount) {
            let candidate = weight(key: key, shard: shard)
            if candidate > bestWeight {
                best = shard
                bestWeight = candidate
            }
        }
        return best
    }

    /// The weight of shard `shard` for a name whose FNV-1a hash is `key`: both mixed through
    /// SplitMix64's finalizer, so nearby keys and indexes give unrelated weights.
    static func weight(key: UInt64, shard: Int) -> UInt64 {
        mix(key ^ mix(UInt64(truncatingIfNeeded: shard) &+ 0x9E37_79B9_7F4A_7C15))
    }

    /// SplitMix64's finalizer (Steele, Lea, Flood 2014): a bijection of 64-bit values that
    /// spreads every input bit over the output.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
