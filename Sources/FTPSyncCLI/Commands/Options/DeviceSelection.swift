// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import ArgumentParser
import SyncCore

/// `--device NAME`, repeatable, and `--shard K/N`: the devices a command works on (none given:
/// every device).
struct DeviceSelection: ParsableArguments {
    @Option(
        name: .customLong("device"),
        help: ArgumentHelp("only this device; repeatable", discussion: "every device", valueName: "NAME"))
    var names: [String] = []

    /// `--shard K/N`: only the devices rendezvous hashing of their names puts in shard K
    /// (0-based) of N.
    @Option(
        name: .customLong("shard"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "only the devices that hashing their names puts in shard K (0-based, as JOB_COMPLETION_INDEX) of N;"
                + " each shard needs its own local folder",
            discussion: "every device", valueName: "K/N"),
        transform: {
            guard let shard = Shard(parsing: $0) else {
                throw ValidationError(
                    "expected K/N with 0 <= K < N <= \(Shard.maxCount), K counted from 0 (0/4 to 3/4 are the four"
                        + " shards of 4)")
            }
            return shard
        })
    var shards: [Shard] = []

    /// `--shard` when given (once: `validate` refuses it twice).
    var shard: Shard? { shards.last }

    /// A second `--shard` is a mistake, never "the last one wins".
    func validate() throws {
        if shards.count > 1 { throw ValidationError("--shard is given \(shards.count) times: give it once") }
    }
}
