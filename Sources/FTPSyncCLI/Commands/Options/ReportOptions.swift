// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import ArgumentParser

/// `--json` and `-v`/`--verbose`: what pull, push, ls and check print.
struct ReportOptions: ParsableArguments {
    @Flag(help: ArgumentHelp("print one JSON document on stdout", discussion: "a text report"))
    var json = false

    @Flag(
        name: .shortAndLong,
        help: ArgumentHelp("log every FTP command and reply to stderr (PASS masked)", discussion: "off"))
    var verbose = false
}
