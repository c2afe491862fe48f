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
            case "pull":
                SignalHandling.install(console: console)
                let code = try PullCommand(arguments: rest, console: console).run().rawValue
                return SignalHandling.exitCode ?? code
            case "check":
                return try CheckCommand(arguments: rest, console: console).run().rawValue
            case "push":
                SignalHandling.install(console: console)
                let code = try PushCommand(arguments: rest, console: console).run().rawValue
                return SignalHandling.exitCode ?? code
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
