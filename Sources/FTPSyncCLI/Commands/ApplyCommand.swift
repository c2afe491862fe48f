// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import ArgumentParser
import Foundation
import LocalTree
import SyncCore

/// `ftpsync apply PLAN.json [CONFIG] [options]`: carries out a reviewed dry run's plan and
/// nothing else, refusing each action whose file changed since the plan was made.
struct ApplyCommand: FTPSyncSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "apply", abstract: "carry out a reviewed plan (a --dry-run --json document), nothing else",
        usage: "ftpsync apply PLAN.json [CONFIG] [options]",
        discussion: """
            Plan each device again with the plan's own options, then carry out only the plan's
            actions whose files are still as the plan saw them (size, time, digest: its "expect"),
            on both sides. An action whose file changed, or that is no longer planned, is refused
            (status refused, exit 1); an action the plan does not hold is not carried out. A plan
            made with another configuration (its bytes differ) is refused whole (exit 2), a device
            that answers with another server identity than at the plan is refused (exit 4).
            Output options (--json, -q, --progress, --log, caps, --bwlimit) are this command's own.
            """)
    static let example = "ftpsync push fleet.yaml --dry-run --json > plan.json && ftpsync apply plan.json"

    @Argument(help: ArgumentHelp("the plan: what `ftpsync push|pull|sync --dry-run --json` printed"))
    var plan: String

    @OptionGroup var options: SyncOptions

    /// The options that shape a plan come from the plan, never from this command line.
    func validate() throws {
        let f = options.filters
        let shaping: [(Bool, String)] = [
            (options.delete, "--delete"), (options.maxDelete != nil, "--max-delete"),
            (options.onConflict != nil, "--on-conflict"), (options.removeSource, "--remove-source"),
            (options.removeSourceFolders, "--remove-source-folders"), (options.resync, "--resync"),
            (!f.include.isEmpty || !f.exclude.isEmpty || !f.filterFrom.isEmpty, "--include/--exclude/--filter-from"),
            (f.minSize != nil || f.maxSize != nil || f.minAge != nil || f.maxAge != nil, "--min-/--max-size/age"),
            (!options.selection.names.isEmpty, "--device"), (options.selection.shard != nil, "--shard"),
        ]
        if options.acceptNewIdentity {
            throw ValidationError(
                "--accept-new-identity does not go with apply: a plan made against another server is never carried out;"
                    + " make a new plan (with --accept-new-identity if the device is the same)")
        }
        if let given = shaping.first(where: \.0) {
            throw ValidationError("\(given.1) is the plan's to say: apply carries out the plan as it was made")
        }
    }

    func execute(console: Console) throws -> ExitCode {
        let document: PlanDocument
        do {
            document = try PlanDocument.read(plan)
        } catch let invalid as PlanDocument.Invalid {
            throw UsageError(invalid.description)
        }
        let configPath = options.configFile.config ?? document.origin.config
        guard let bytes = FileManager.default.contents(atPath: configPath) else {
            throw UsageError("cannot read the configuration \(configPath) the plan was made with")
        }
        guard XXH3Hasher.digest(of: [UInt8](bytes)) == document.origin.configDigest else {
            throw UsageError(
                "the plan was made with another configuration (\(document.origin.config) has changed since, or"
                    + " \(configPath) is another file): make a new plan with --dry-run --json")
        }
        var planned: SyncOptions
        do {
            planned = try SyncOptions.parse(document.origin.arguments)
        } catch {
            throw UsageError("the plan's options cannot be read (\(document.origin.arguments.joined(separator: " ")))")
        }
        if document.order.isEmpty {
            if !options.quiet && !options.report.json { console.out("nothing to apply: the plan holds no action\n") }
            return .success
        }
        planned.configFile.config = configPath
        planned.dryRun = options.dryRun
        planned.report = options.report
        planned.quiet = options.quiet
        planned.progress = options.progress
        planned.noProgress = options.noProgress
        planned.log = options.log
        planned.logFormat = options.logFormat
        planned.metricsFile = options.metricsFile
        planned.jobsOption = options.jobsOption
        planned.parallel = options.parallel ?? planned.parallel
        planned.bwlimit = options.bwlimit ?? planned.bwlimit
        planned.maxTransfer = options.maxTransfer
        planned.maxDuration = options.maxDuration
        return try SyncRun(direction: document.direction, options: planned, console: console, reviewed: document).run()
    }
}
