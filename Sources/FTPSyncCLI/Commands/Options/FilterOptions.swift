// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import ArgumentParser
import SyncConfig
import SyncCore
import SyncRunner

/// The filter options of `pull`, `push` and `ls`, parsed once into typed values (`RunFilters`).
struct FilterOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "keep only paths matching GLOB (repeatable; `**` crosses folders); adds to the device's include",
            discussion: "the device's include", valueName: "GLOB"),
        transform: OptionValue.pattern)
    var include: [String] = []

    @Option(
        help: ArgumentHelp(
            "leave out paths matching GLOB (repeatable; `**` crosses folders); adds to the device's exclude",
            discussion: "the device's exclude", valueName: "GLOB"),
        transform: OptionValue.pattern)
    var exclude: [String] = []

    @Option(
        name: .customLong("filter-from"), parsing: .singleValue,
        help: ArgumentHelp(
            "read rules from FILE: lines `+ GLOB` (keep) or `- GLOB` (leave out), # comments; first match decides",
            discussion: "the device's filter_from", valueName: "FILE"),
        completion: .file(),
        transform: { path in
            do {
                return try FilterFile.rules(at: path)
            } catch {
                throw ValidationError("\(error)")
            }
        })
    var filterFrom: [[FilterRule]] = []

    @Option(
        name: .customLong("min-size"), parsing: .unconditional,
        help: ArgumentHelp(
            "leave out files smaller than SIZE (512k, 10M, 1.5G; bytes without a unit)",
            discussion: "the device's min_size, else none", valueName: "SIZE"),
        transform: OptionValue.size)
    var minSize: Int64?

    @Option(
        name: .customLong("max-size"), parsing: .unconditional,
        help: ArgumentHelp(
            "leave out files larger than SIZE (512k, 10M, 1.5G; bytes without a unit)",
            discussion: "the device's max_size, else none", valueName: "SIZE"),
        transform: OptionValue.size)
    var maxSize: Int64?

    @Option(
        name: .customLong("min-age"), parsing: .unconditional,
        help: ArgumentHelp(
            "leave files modified less than DURATION ago for a later run (90s, 15m, 2h, 7d)",
            discussion: "the device's min_age, else 0 (off)", valueName: "DURATION"),
        transform: OptionValue.duration)
    var minAge: Int?

    @Option(
        name: .customLong("max-age"), parsing: .unconditional,
        help: ArgumentHelp(
            "leave out files modified more than DURATION ago (90s, 15m, 2h, 7d)",
            discussion: "the device's max_age, else none", valueName: "DURATION"),
        transform: OptionValue.duration)
    var maxAge: Int?

    /// These options as the runner takes them.
    var runFilters: RunFilters {
        var filters = RunFilters()
        filters.include = include
        filters.exclude = exclude
        filters.filterFrom = filterFrom.flatMap { $0 }
        filters.minSize = minSize
        filters.maxSize = maxSize
        filters.minAge = minAge
        filters.maxAge = maxAge
        return filters
    }
}
