import Foundation

/// Entry point of the `ftpsync` command.
public enum FTPSyncCLI {
    /// Runs one command line and returns the exit code (CONTRACT.md, "Exit codes").
    /// - Parameter arguments: the full command line, program name first.
    public static func main(_ arguments: [String]) -> Int32 {
        let console = Console()
        // A peer that resets a connection (a TLS write, a sendfile upload) or a reader of our
        // output that goes away must surface as an EPIPE error, never kill the process.
        signal(SIGPIPE, SIG_IGN)
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
        do {
            switch first {
            case "-h", "--help":
                console.out(Help.overview)
                return ExitCode.success.rawValue
            case "--version":
                console.out("ftpsync \(ftpsyncVersion)")
                return ExitCode.success.rawValue
            case "help":
                return help(rest.first, console: console)
            case "pull", "push":
                return runSync(first, rest, console: console)
            case "check":
                return try CheckCommand(arguments: rest, console: console).run().rawValue
            case "ls":
                return try LsCommand(arguments: rest, console: console).run().rawValue
            case "status":
                return try StatusCommand(arguments: rest, console: console).run().rawValue
            case let other where Help.commands.contains(other):
                throw UsageError("'\(other)' is not available in this build yet (see ftpsync help \(other))")
            default:
                let known = Help.commands
                var message = "unknown command '\(first)'"
                if let near = ArgumentParser.nearest(to: first, among: known) { message += "; did you mean '\(near)'?" }
                throw UsageError(message + " (see ftpsync --help)")
            }
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
    private static func runSync(_ command: String, _ rest: [String], console: Console) -> Int32 {
        let started = Date()
        SignalHandling.install(console: console)
        do {
            let code =
                try command == "pull"
                ? PullCommand(arguments: rest, console: console).run().rawValue
                : PushCommand(arguments: rest, console: console).run().rawValue
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
            var message = "ftpsync: no help for '\(command)'"
            if let near = ArgumentParser.nearest(to: command, among: Help.commands) {
                message += "; did you mean '\(near)'?"
            }
            console.error(message + " (commands: \(Help.commands.joined(separator: ", ")))")
            return ExitCode.usage.rawValue
        }
        console.out(page)
        return ExitCode.success.rawValue
    }
}
