// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import ArgumentParser

/// `[CONFIG]`: the configuration file of pull, push, check and status.
struct ConfigArgument: ParsableArguments {
    @Argument(
        help: ArgumentHelp("the configuration file", discussion: "$FTPSYNC_CONFIG, else ./device.yaml"),
        completion: .file(extensions: ["yaml", "yml"]))
    var config: String?
}
