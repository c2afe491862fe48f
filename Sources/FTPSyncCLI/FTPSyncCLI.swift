// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import ArgumentParser
import Foundation

/// Entry point of the `ftpsync` command.
public enum FTPSyncCLI {
    /// Runs one command line and returns the exit code (CONTRACT.md, "Exit codes").
    /// - Parameter arguments: the full command line, program name first.
    public static func main(_ arguments: [String]) -> Int32 {
        let console = Console()
        // A peer that resets a connection (a write to a data connection) or a reader of our
        // output that goes away must surface as an EPIPE error, never kill the process.
        signal(SIGPIPE, SIG_IGN)
        raiseDescriptorLimit()
        let words = Array(arguments.dropFirst())
        guard let first = words.first else {
            console.error(Help.overview)
            return ExitCode.usage.rawValue
        }
        let rest = Array(words.dropFirst())
        // `ftpsync COMMAND --help` (before `--`): the command's page, whatever else is on the line.
        let options = rest.prefix { $0 != "--" }
        if options.contains("-h") || options.contains("--help"), let page = Help.page(for: first) {
            console.out(page)
            return ExitCode.success.rawValue
        }
        switch first {
        case "-h", "--help":
            console.out(Help.overview)
            return ExitCode.success.rawValue
        case "help":
            return help(rest.first, console: console)
        default:
            break
        }
        let command: any FTPSyncSubcommand
        do {
            command = try parse(words)
        } catch let error as UsageError {
            console.error("ftpsync: \(error.message)")
            if first == "pull" || first == "push" {
                printStopDocument(
                    command: first, words: rest, message: error.message, code: .usage, started: Date(),
                    console: console)
            }
            return ExitCode.usage.rawValue
        } catch let finished as ParsedToTheEnd {
            // --version, --generate-completion-script: the parser's text, exit 0.
            console.out(finished.text)
            return ExitCode.success.rawValue
        } catch {
            console.error("ftpsync: \(error)")
            return ExitCode.partialFailure.rawValue
        }
        if first == "pull" || first == "push" { return runSync(command, first, rest, console: console) }
        do {
            return try command.execute(console: console).rawValue
        } catch let error as UsageError {
            console.error("ftpsync: \(error.message)")
            return ExitCode.usage.rawValue
        } catch {
            console.error("ftpsync: \(error)")
            return ExitCode.partialFailure.rawValue
        }
    }

    /// `pull` or `push`: like the other commands, but every error that stops the run before it
    /// started also prints the JSON document with `--json` (exit 2, or 1 for other errors).
    private static func runSync(_ sync: any FTPSyncSubcommand, _ command: String, _ rest: [String], console: Console)
        -> Int32
    {
        let started = Date()
        SignalHandling.install(console: console)
        do {
            let code = try sync.execute(console: console).rawValue
            return SignalHandling.exitCode ?? code
        } catch let error as UsageError {
            console.error("ftpsync: \(error.message)")
            printStopDocument(
                command: command, words: rest, message: error.message, code: .usage, started: started, console: console)
            return ExitCode.usage.rawValue
        } catch {
            console.error("ftpsync: \(error)")
            printStopDocument(
                command: command, words: rest, message: "\(error)", code: .partialFailure, started: started,
                console: console)
            return ExitCode.partialFailure.rawValue
        }
    }

    private static func help(_ command: String?, console: Console) -> Int32 {
        guard let command else {
            console.out(Help.overview)
            return ExitCode.success.rawValue
        }
        guard let page = Help.page(for: command) else {
            let message = Help.suggesting("ftpsync: no help for '\(command)'", for: command, among: Help.commands)
            console.error(message + " (commands: \(Help.commands.joined(separator: ", ")))")
            return ExitCode.usage.rawValue
        }
        console.out(page)
        return ExitCode.success.rawValue
    }
}
