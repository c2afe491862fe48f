/// The version `ftpsync --version` prints.
public let ftpsyncVersion = "0.1.0"

/// Help texts, one per command.
enum Help {
    static let overview = """
        ftpsync \(ftpsyncVersion): keep file trees in sync between this machine and the FTP servers of devices.

        usage: ftpsync COMMAND [CONFIG] [options]

        commands:
          pull     copy what the devices hold into the local tree
          check    connect, log in, report server features and TLS details
          help     show help for a command: ftpsync help pull

        CONFIG is a YAML file; when omitted, $FTPSYNC_CONFIG, else ./device.yaml.

        options for every command:
          -h, --help       show help
              --version    print the version

        exit codes: 0 done, 1 some actions or devices failed, 2 usage or configuration error,
                    3 another run holds the lock, 4 safety stop

        example:
          ftpsync pull device.yaml --dry-run
        """

    static func text(for command: String, options: [OptionSpec], usage: String, summary: String, example: String)
        -> String
    {
        var out = "usage: \(usage)\n\n\(summary)\n\noptions:\n"
        for option in options {
            var names = option.names.joined(separator: ", ")
            if option.takesValue { names += " " + option.valueName }
            let pad = names.count < 26 ? String(repeating: " ", count: 26 - names.count) : "  "
            out += "  " + names + pad + option.help + "\n"
        }
        out += "\nexample:\n  \(example)\n"
        return out
    }
}
