// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import ArgumentParser
import SyncConfig
import SyncCore
import SyncRunner

/// The options of `pull` and `push` (the same for both), parsed once into typed values.
struct SyncOptions: ParsableArguments {
    @OptionGroup var configFile: ConfigArgument
    @OptionGroup var selection: DeviceSelection

    @Flag(
        name: [.customShort("n"), .customLong("dry-run")],
        help: ArgumentHelp("print the plan; change nothing", discussion: "off"))
    var dryRun = false

    @Flag(
        help: ArgumentHelp(
            "also remove what the source side no longer has (pull: to the trash)", discussion: "off"))
    var delete = false

    /// Files one device's plan may delete; -1 = no limit (see `maxDeleteLimit`).
    @Option(
        name: .customLong("max-delete"), parsing: .unconditional,
        help: ArgumentHelp(
            "refuse a device (exit 4) whose plan deletes more than N files",
            discussion: "50; -1 = no limit", valueName: "N"),
        transform: {
            try OptionValue.wholeNumber(
                $0, in: -1...Int.max, "expected a whole number of files, or -1 for no limit")
        })
    var maxDelete: Int?

    /// Control connections per device; nil: the device's `connections`.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "control connections per device, transfers spread over them (overrides `connections`)",
            discussion: "the device's connections, 2", valueName: "N"),
        transform: {
            try OptionValue.wholeNumber($0, in: 1...16, "expected a number of connections from 1 to 16")
        })
    var parallel: Int?

    /// `--segments` when given; nil: the device's `segments`.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "pull: fetch a file of at least segment_threshold bytes (default 64 MiB) in N ranges at once, each over"
                + " its own connection (1 to 16)",
            discussion: "the device's segments, else 1", valueName: "N"),
        transform: { try OptionValue.wholeNumber($0, in: 1...16, "expected a number of segments from 1 to 16") })
    var segments: Int?

    /// `--order` when given; nil: the device's `order`, else the plan's.
    @Option(
        help: ArgumentHelp(
            "the order transfers start in: name, oldest-first, newest-first, smallest-first or largest-first",
            discussion: "the device's order, else the plan's, folder by folder", valueName: "ORDER"),
        completion: .list(TransferOrder.allCases.map(\.rawValue)), transform: OptionValue.choice)
    var order: TransferOrder?

    @Option(
        help: ArgumentHelp(
            "append a timestamped log of actions and errors to FILE (`-`: stderr)", discussion: "no log",
            valueName: "FILE"),
        completion: .file())
    var log: String?

    /// `--log-format` when given; nil: the configuration's `log_format`, else text.
    @Option(
        name: .customLong("log-format"),
        help: ArgumentHelp(
            "how --log writes its lines: text, or json (one object per line)",
            discussion: "the configuration's log_format, else text", valueName: "FORMAT"),
        completion: .list(LogFormat.allCases.map(\.rawValue)), transform: OptionValue.choice)
    var logFormat: LogFormat?

    /// `--metrics-file` when given; nil: the configuration's `metrics_file`.
    @Option(
        name: .customLong("metrics-file"),
        help: ArgumentHelp(
            "write the gauges of every device to FILE (Prometheus text format) at the end of the run",
            discussion: "the configuration's metrics_file, else none", valueName: "FILE"),
        completion: .file(),
        transform: { text in
            guard !text.isEmpty, !text.hasSuffix("/") else { throw ValidationError("expected the path of a file") }
            return text
        })
    var metricsFile: String?

    @OptionGroup var report: ReportOptions

    @Flag(name: .shortAndLong, help: ArgumentHelp("print nothing but errors", discussion: "off"))
    var quiet = false

    @Flag(
        help: ArgumentHelp(
            "progress on stderr: redrawn in place on a terminal, else a line per finished action",
            discussion: "on, except with -q and --dry-run"))
    var progress = false

    @Flag(
        name: .customLong("no-progress"),
        help: ArgumentHelp("no progress while it runs; the report only", discussion: "off"))
    var noProgress = false

    @OptionGroup var jobsOption: JobsOption

    @Flag(
        name: .customLong("accept-new-identity"),
        help: "a device whose server answers with another identity than last time: take the new one")
    var acceptNewIdentity = false

    /// `--on-conflict` when given; nil: the device's `on_conflict`, else the direction's default.
    @Option(
        name: .customLong("on-conflict"),
        help: ArgumentHelp(
            "what a conflict does: keep-both, local-wins, remote-wins, newer-wins or report",
            discussion: "the device's on_conflict, else keep-both for pull and sync, report for push",
            valueName: "POLICY"),
        completion: .list(ConflictPolicy.allCases.map(\.rawValue)), transform: OptionValue.choice)
    var onConflict: ConflictPolicy?

    /// `--bwlimit` in bytes per second when given; nil: no cap on the run (devices' `bwlimit` still apply).
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "cap all transfers of the run together at RATE bytes per second (512k, 2M, 1.5M; k = 1,024; "
                + "off or 0: none); each device's bwlimit applies besides",
            discussion: "no limit", valueName: "RATE"),
        transform: OptionValue.rate)
    var bwlimit: Int64?

    /// `--max-transfer` in bytes; nil: no cap.
    @Option(
        name: .customLong("max-transfer"), parsing: .unconditional,
        help: ArgumentHelp(
            "stop starting transfers once the run moved SIZE bytes, all devices together (exit 5; the rest next run)",
            discussion: "no cap", valueName: "SIZE"),
        transform: OptionValue.capSize)
    var maxTransfer: UInt64?

    /// `--max-duration` in seconds; nil: no cap.
    @Option(
        name: .customLong("max-duration"), parsing: .unconditional,
        help: ArgumentHelp(
            "stop starting transfers once the run has lasted DURATION (exit 5; the rest next run)",
            discussion: "no cap", valueName: "DURATION"),
        transform: OptionValue.capDuration)
    var maxDuration: Int?
    @Flag(
        name: .customLong("remove-source"),
        help: ArgumentHelp(
            "pull only: delete each device file once its copy here is complete and verified (offload)",
            discussion: "the device's remove_source, else off"))
    var removeSource = false

    @Flag(
        name: .customLong("remove-source-folders"),
        help: ArgumentHelp(
            "with --remove-source: also remove the device folders the offload empties (never the root)",
            discussion: "the device's remove_source_folders, else off"))
    var removeSourceFolders = false

    @Flag(
        name: .customLong("resync"),
        help: ArgumentHelp(
            "sync only: start over from both sides as they are (their union, nothing deleted), as on a first sync",
            discussion: "off"))
    var resync = false

    @OptionGroup var filters: FilterOptions

    /// `--max-delete` as the policy takes it: nil for no limit.
    var maxDeleteLimit: Int? {
        guard let maxDelete else { return RunOptions.defaultMaxDelete }
        return maxDelete == -1 ? nil : maxDelete
    }

    /// The most device files an offload may delete: only a `--max-delete` given counts them
    /// (`SyncPolicy.maxOffload`); nil when not given or -1.
    var maxOffloadLimit: Int? { maxDelete == nil ? nil : maxDeleteLimit }

    /// The devices run at the same time.
    var jobs: Int { jobsOption.jobs }
}
