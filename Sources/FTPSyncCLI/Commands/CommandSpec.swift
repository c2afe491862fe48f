// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import ArgumentParser
import Foundation

/// What the parser knows of a command and its options, read from its tool-info document
/// (`ParsableCommand._dumpHelp()`, the JSON `--experimental-dump-help` prints and the parser's
/// manual generator reads): the help pages, the typo suggestions and the man page test all
/// take the options from here, so none of them lists the options a second time.
struct CommandSpec: Decodable, Sendable {
    /// One spelling of an option: `kind` is `long`, `short` or `longWithSingleDash`.
    struct Name: Decodable, Sendable {
        var kind: String
        var name: String

        /// As typed: `--dry-run`, `-n`.
        var spelling: String { kind == "long" ? "--" + name : "-" + name }
    }

    /// An option, a flag or a positional argument.
    struct Argument: Decodable, Sendable {
        /// `positional`, `option` (takes a value) or `flag`.
        var kind: String
        var names: [Name]?
        var valueName: String?
        var abstract: String?
        /// Our use: the default, shown as `(default: …)` on the help page.
        var discussion: String?
        var shouldDisplay: Bool

        /// Every spelling, short ones first: `["-n", "--dry-run"]`.
        var spellings: [String] {
            let names = names ?? []
            return (names.filter { $0.kind != "long" } + names.filter { $0.kind == "long" }).map(\.spelling)
        }

        /// True for the flags the parser adds to every command: `--help`, `--version`.
        var isBuiltIn: Bool {
            names?.contains { $0.kind == "long" && ($0.name == "help" || $0.name == "version") } == true
        }
    }

    var commandName: String
    var abstract: String?
    var discussion: String?
    var subcommands: [CommandSpec]?
    var arguments: [Argument]?

    /// The options and flags of the command itself (no positionals, no `--help`, `--version`),
    /// in declaration order.
    var options: [Argument] { (arguments ?? []).filter { $0.kind != "positional" && !$0.isBuiltIn } }

    /// Every spelling of every option and flag, `--help` and `--version` included.
    var spellings: [String] { (arguments ?? []).filter { $0.kind != "positional" }.flatMap(\.spellings) }

    /// The spellings that take a value (`--device`, `-j`).
    var valueSpellings: Set<String> {
        Set((arguments ?? []).filter { $0.kind == "option" }.flatMap(\.spellings))
    }

    /// The options the parser answers at the root without listing them in the tool info.
    static let parserOptions = ["--generate-completion-script"]

    /// The subcommand called `name`.
    func subcommand(_ name: String) -> CommandSpec? { subcommands?.first { $0.commandName == name } }

    /// The specification of `ftpsync` and its commands, read once.
    static let root: CommandSpec = {
        struct Document: Decodable { var command: CommandSpec }
        let text = FTPSyncCommand._dumpHelp()
        guard let document = try? JSONDecoder().decode(Document.self, from: Data(text.utf8)) else {
            preconditionFailure("the argument parser's tool info did not decode: \(text.prefix(200))")
        }
        return document.command
    }()
}
