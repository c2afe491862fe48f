/// The version `ftpsync --version` prints.
public let ftpsyncVersion = "0.1.0"

/// Help texts: the overview and one page per command (`ftpsync help COMMAND`).
enum Help {
    /// Every command, in the order the overview lists them.
    static let commands = ["pull", "push", "ls", "check", "status", "help"]

    static let overview = """
        ftpsync \(ftpsyncVersion): keep file trees in sync between this machine and the FTP servers of devices.

        usage: ftpsync COMMAND [CONFIG] [options]

        commands:
          pull     copy what the devices hold into the local tree (devices -> here)
          push     copy the local tree to the devices (here -> devices)
          ls       list one remote folder of a device, parsed: ftpsync ls cam:/DCIM
          check    connect and log in to each device, report what its server supports and its TLS details
          status   what the state knows: last sync per device, files tracked, partials waiting
          help     show help for a command: ftpsync help pull

        CONFIG is a YAML file; when omitted, $FTPSYNC_CONFIG, else ./device.yaml.
        Every command also takes -h/--help; see the man page ftpsync(1) and docs/cli.md.

        options for every command:
          -h, --help       show help
              --version    print the version

        exit codes: 0 done, 1 some actions or devices failed, 2 usage or configuration error,
                    3 another run holds the lock, 4 safety stop

        examples:
          ftpsync pull device.yaml --dry-run      show what would be downloaded
          ftpsync pull device.yaml -q --log /var/log/ftpsync.log     for cron
          ftpsync status device.yaml
        """

    /// The help page of `command`, nil for an unknown command.
    static func page(for command: String) -> String? {
        switch command {
        case "pull": return PullCommand.help
        case "push": return PushCommand.help
        case "ls": return LsCommand.help
        case "check": return CheckCommand.help
        case "status": return StatusCommand.help
        case "help": return helpPage
        default: return nil
        }
    }

    /// Defaults shown after an option's help line, by option key.
    static let defaults: [String: String] = [
        "device": "every device", "dry-run": "off", "delete": "off", "max-delete": "50; -1 = no limit",
        "parallel": "the device's connections, 2", "json": "a text report", "quiet": "off", "verbose": "off",
        "progress": "on, except with -q and --dry-run", "no-progress": "off", "log": "no log",
        "on-conflict": "the device's on_conflict, else keep-both for pull, report for push",
    ]

    /// A help page: usage, summary, every option with its default, and an example.
    static func text(for command: String, options: [OptionSpec], usage: String, summary: String, example: String)
        -> String
    {
        var out = "usage: \(usage)\n\n\(summary)\n\noptions:\n"
        for option in options + [
            OptionSpec(names: ["-h", "--help"], key: "help", takesValue: false, help: "show this help")
        ] {
            var names = option.names.joined(separator: ", ")
            if !option.names[0].hasPrefix("--") || option.names.count > 1 {
                // Short and long spelling: aligned as is.
            } else {
                names = "    " + names
            }
            if option.takesValue { names += " " + option.valueName }
            let pad = names.count < 26 ? String(repeating: " ", count: 26 - names.count) : "  "
            out += "  " + names + pad + option.help
            if let value = defaults[option.key] {
                let note = "(default: \(value))"
                let width = 2 + names.count + pad.count + option.help.count + 1 + note.count
                out += width <= 100 ? " " + note : "\n" + String(repeating: " ", count: 28) + note
            }
            out += "\n"
        }
        out += "\nexample:\n  \(example)\n"
        return out
    }

    static let helpPage = """
        usage: ftpsync help [COMMAND]

        Show the overview, or the help page of COMMAND (\(commands.joined(separator: ", "))).
        `ftpsync COMMAND --help` shows the same page.

        example:
          ftpsync help pull
        """
}
