// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import ArgumentParser
import SyncConfig

/// Help texts: the overview and one page per command (`ftpsync help COMMAND`), generated from
/// the commands' definitions (`CommandSpec`) in ftpsync's own layout: usage, summary, every
/// option with its default, an example.
enum Help {
    /// The commands that run, in the order the overview lists them.
    static let runnable: [any FTPSyncSubcommand.Type] = [
        PullCommand.self, PushCommand.self, SyncCommand.self, ApplyCommand.self, LsCommand.self, CheckCommand.self,
        StatusCommand.self,
        VerifyCommand.self,
    ]

    /// Every command, in the order the overview lists them.
    static let commands = runnable.map { $0.configuration.commandName ?? "" } + ["help"]

    /// The command called `name`.
    static func command(named name: String) -> (any FTPSyncSubcommand.Type)? {
        runnable.first { $0.configuration.commandName == name }
    }

    static var overview: String {
        let lines = runnable.map { command in
            let name = command.configuration.commandName ?? ""
            return "  " + name.padding(toLength: 9, withPad: " ", startingAt: 0) + command.configuration.abstract
        }
        return """
            ftpsync \(ftpsyncVersion): \(FTPSyncCommand.configuration.abstract).

            usage: ftpsync COMMAND [CONFIG] [options]

            commands:
            \(lines.joined(separator: "\n"))
              help     show help for a command: ftpsync help pull

            CONFIG is a YAML file; when omitted, $FTPSYNC_CONFIG, else ./device.yaml.
            Every command also takes -h/--help; see the man page ftpsync(1) and cli.md
            (in /usr/share/doc/ftpsync/ when installed from the package, docs/ in the source).

            options for every command:
              -h, --help       show help
                  --version    print the version
                  --generate-completion-script bash|zsh|fish
                               print a completion script for the shell

            exit codes: 0 done, 1 some actions or devices failed, 2 usage or configuration error,
                        3 another run holds the lock, 4 safety stop,
                        5 stopped early by --max-transfer or --max-duration (the next run continues)

            examples:
              ftpsync pull device.yaml --dry-run      show what would be downloaded
              ftpsync pull device.yaml -q --log /var/log/ftpsync.log     for cron
              ftpsync status device.yaml --stale 6h   exit 1 when a device has not synced for 6 h
              ftpsync verify device.yaml --local      find local files changed since the last sync
              ftpsync --generate-completion-script bash > /etc/bash_completion.d/ftpsync
            """
    }

    /// The help page of `command`, nil for an unknown command.
    static func page(for command: String) -> String? {
        if command == "help" { return helpPage }
        guard let type = Self.command(named: command), let spec = CommandSpec.root.subcommand(command) else {
            return nil
        }
        return text(spec: spec, usage: type.configuration.usage ?? "", example: type.example)
    }

    /// A help page: usage, summary, every option with its default, and an example.
    static func text(spec: CommandSpec, usage: String, example: String) -> String {
        var out = "usage: \(usage)\n\n\(spec.discussion ?? "")\n\noptions:\n"
        let help = CommandSpec.Argument(
            kind: "flag", names: [.init(kind: "short", name: "h"), .init(kind: "long", name: "help")],
            abstract: "show this help", shouldDisplay: true)
        for option in spec.options + [help] where option.shouldDisplay {
            let spellings = option.spellings
            var names = spellings.joined(separator: ", ")
            if spellings.count == 1, spellings[0].hasPrefix("--") { names = "    " + names }
            if option.kind == "option", let value = option.valueName { names += " " + value }
            let pad = names.count < 26 ? String(repeating: " ", count: 26 - names.count) : "  "
            let abstract = option.abstract ?? ""
            out += "  " + names + pad + abstract
            if let value = option.discussion, !value.isEmpty {
                let note = "(default: \(value))"
                let width = 2 + names.count + pad.count + abstract.count + 1 + note.count
                out += width <= 100 ? " " + note : "\n" + String(repeating: " ", count: 28) + note
            }
            out += "\n"
        }
        out += "\nexample:\n  \(example)\n"
        return out
    }

    /// `message` and, when `word` is a typo of one of `candidates`, `; did you mean 'NEAR'?`.
    static func suggesting(_ message: String, for word: String, among candidates: [String]) -> String {
        guard let near = nearestKey(to: word, among: candidates) else { return message }
        return message + "; did you mean '\(near)'?"
    }

    static var helpPage: String {
        """
        usage: ftpsync help [COMMAND]

        Show the overview, or the help page of COMMAND (\(commands.joined(separator: ", "))).
        `ftpsync COMMAND --help` shows the same page.

        example:
          ftpsync help pull
        """
    }
}
