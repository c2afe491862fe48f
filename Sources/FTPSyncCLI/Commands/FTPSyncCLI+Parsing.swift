// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import ArgumentParser

/// The text the parser answers a request with that ends the process successfully
/// (`--version`, `--generate-completion-script SHELL`): printed on stdout, exit 0.
struct ParsedToTheEnd: Error {
    var text: String
}

extension FTPSyncCLI {
    /// Parses `words` (the command line after the program name) into the command it names.
    /// - Throws: `UsageError` with one line for an unknown command or option (naming the
    ///   nearest valid one), a missing or bad value, an extra argument; `ParsedToTheEnd` for
    ///   `--version` and `--generate-completion-script`.
    static func parse(_ words: [String]) throws -> any FTPSyncSubcommand {
        if let first = words.first, !first.hasPrefix("-"), Help.command(named: first) == nil {
            let message = Help.suggesting("unknown command '\(first)'", for: first, among: Help.commands)
            throw UsageError(message + " (see ftpsync --help)")
        }
        let parsed: any ParsableCommand
        do {
            parsed = try FTPSyncCommand.parseAsRoot(words)
        } catch {
            if FTPSyncCommand.exitCode(for: error).isSuccess {
                throw ParsedToTheEnd(text: FTPSyncCommand.fullMessage(for: error))
            }
            throw UsageError(usageMessage(for: error, words: words))
        }
        guard let command = parsed as? any FTPSyncSubcommand else {
            // `ftpsync` with options only (`ftpsync --json`): no command named.
            throw UsageError("no command given (see ftpsync --help)")
        }
        return command
    }

    /// One line for a command line the parser refused: an unknown option with the nearest
    /// valid one, else the parser's own message.
    static func usageMessage(for error: Error, words: [String]) -> String {
        let spec = words.first.flatMap { CommandSpec.root.subcommand($0) } ?? CommandSpec.root
        if let unknown = unknownOption(in: words.dropFirst(spec.commandName == "ftpsync" ? 0 : 1), spec: spec) {
            let candidates = spec.spellings.filter { $0.hasPrefix("--") }
            return Help.suggesting("unknown option '\(unknown)'", for: unknown, among: candidates)
        }
        var message = FTPSyncCommand.message(for: error)
        if let first = message.first { message = first.lowercased() + message.dropFirst() }
        if message.hasSuffix(".") { message.removeLast() }
        let command = spec.commandName == "ftpsync" ? "" : " " + spec.commandName
        return message.split(separator: "\n").joined(separator: " ") + " (see ftpsync help\(command))"
    }

    /// The first word before `--` that looks like an option `spec` does not have (a value of
    /// an option that takes one is skipped; `-nq` is checked letter by letter).
    static func unknownOption(in words: ArraySlice<String>, spec: CommandSpec) -> String? {
        let known = Set(spec.spellings + CommandSpec.parserOptions)
        let takesValue = spec.valueSpellings
        var skipNext = false
        for word in words {
            if word == "--" { return nil }
            if skipNext {
                skipNext = false
                continue
            }
            guard word.hasPrefix("-"), word != "-", Int(word) == nil else { continue }
            let name = word.hasPrefix("--") ? String(word.prefix { $0 != "=" }) : word
            if known.contains(name) {
                skipNext = takesValue.contains(name) && name == word
                continue
            }
            if !word.hasPrefix("--"), word.count > 2, word.dropFirst().allSatisfy({ known.contains("-\($0)") }) {
                continue
            }
            return name
        }
        return nil
    }
}
