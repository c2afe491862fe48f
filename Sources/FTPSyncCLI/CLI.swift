import Foundation

/// Entry point of the `ftpsync` command.
public enum FTPSyncCLI {
    /// Runs one command line and returns the exit code (CONTRACT.md, "Exit codes").
    /// - Parameter arguments: the full command line, program name first.
    public static func main(_ arguments: [String]) -> Int32 {
        let console = Console()
        let words = Array(arguments.dropFirst())
        guard let first = words.first else {
            console.error(Help.overview)
            return ExitCode.usage.rawValue
        }
        let rest = Array(words.dropFirst())
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
                if rest.contains("-h") || rest.contains("--help") {
                    console.out(PullCommand.help)
                    return ExitCode.success.rawValue
                }
                return try PullCommand(arguments: rest, console: console).run().rawValue
            case "check":
                if rest.contains("-h") || rest.contains("--help") {
                    console.out(CheckCommand.help)
                    return ExitCode.success.rawValue
                }
                return try CheckCommand(arguments: rest, console: console).run().rawValue
            default:
                let known = ["pull", "check", "help"]
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
        switch command {
        case nil:
            console.out(Help.overview)
        case "pull":
            console.out(PullCommand.help)
        case "check":
            console.out(CheckCommand.help)
        case let other?:
            console.error("ftpsync: no help for '\(other)' (commands: pull)")
            return ExitCode.usage.rawValue
        }
        return ExitCode.success.rawValue
    }
}
