import ArgumentParser
import FTPListing
import Foundation
import SyncConfig
import SyncCore
import SyncStore

/// `ftpsync status [CONFIG] [--json]`: what the state database knows about each device.
/// Reads the state only: no network, no lock, and nothing is created when there is no state yet.
struct StatusCommand: FTPSyncSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "what the state knows: last sync per device, files tracked, partials waiting",
        usage: "ftpsync status [CONFIG] [--json]",
        discussion: """
            Show, per device of CONFIG, what the state under <local>/.ftpsync/ records: the end of the
            last successful sync, the files and bytes tracked, interrupted transfers waiting to resume,
            and whether the server's identity is known. Makes no network connection and changes nothing.
            """)
    static let example = "ftpsync status device.yaml --json"

    @OptionGroup var configFile: ConfigArgument

    @Flag(help: ArgumentHelp("print one JSON document on stdout", discussion: "a text report"))
    var json = false

    /// `environment` with every variable the file names in `password_env` set (empty when
    /// missing): status makes no connection, so an unset password must not stop it.
    static func offline(_ environment: [String: String], configPath: String) -> [String: String] {
        guard let text = try? String(contentsOfFile: configPath, encoding: .utf8) else { return environment }
        var result = environment
        for match in text.matches(of: /password_env["']?\s*:\s*["']?([A-Za-z_][A-Za-z0-9_]*)/) {
            let name = String(match.output.1)
            if result[name] == nil { result[name] = "" }
        }
        return result
    }

    /// Prints the status; exit 2 for a bad configuration, 1 when the state cannot be read.
    func execute(console: Console) -> ExitCode {
        let environment = ProcessInfo.processInfo.environment
        let configPath = resolveConfigPath(configFile.config, environment: environment)
        let configuration: Configuration
        do {
            configuration = try loadConfiguration(
                path: configPath, environment: StatusCommand.offline(environment, configPath: configPath),
                console: console)
        } catch {
            console.error(error.description)
            return .usage
        }
        let document: StatusDocument
        do {
            document = try StatusDocument.read(configuration)
        } catch {
            console.error("ftpsync: cannot read the state of \(configuration.localRoot): \(error)")
            return .partialFailure
        }
        if json { console.json(jsonText(document)) } else { console.out(document.text) }
        return .success
    }
}
