// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import ArgumentParser

/// `-j`/`--jobs N`: devices run at the same time (pull, push, check).
struct JobsOption: ParsableArguments {
    /// Devices run at once when `--jobs` is not given.
    static let defaultJobs = 4

    @Option(
        name: [.customLong("jobs"), .customShort("j")], parsing: .unconditional,
        help: ArgumentHelp(
            "devices run at the same time, each on its own threads and connections; default 4", valueName: "N"),
        transform: { try OptionValue.wholeNumber($0, in: 1...256, "expected a number of devices from 1 to 256") })
    var jobs: Int = JobsOption.defaultJobs
}
