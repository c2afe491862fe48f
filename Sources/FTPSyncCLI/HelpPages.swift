/// Help pages of the commands whose parsers live elsewhere (written from CONTRACT.md).
extension Help {
    /// The options of `push`, as CONTRACT.md lists them.
    static let pushOptions: [OptionSpec] = [
        OptionSpec(
            names: ["--device"], key: "device", takesValue: true, valueName: "NAME",
            help: "only this device; repeatable"
        ),
        OptionSpec(
            names: ["-n", "--dry-run"], key: "dry-run", takesValue: false,
            help: "print the plan; change nothing here or on any server"),
        OptionSpec(
            names: ["--delete"], key: "delete", takesValue: false,
            help: "also delete (DELE/RMD) what the local tree no longer has"),
        OptionSpec(
            names: ["--max-delete"], key: "max-delete", takesValue: true, valueName: "N",
            help: "refuse a device's run (exit 4) if it would delete more than N files"),
        OptionSpec(
            names: ["--parallel"], key: "parallel", takesValue: true, valueName: "N",
            help: "data connections per device"),
        OptionSpec(names: ["--json"], key: "json", takesValue: false, help: "print one JSON document on stdout"),
        OptionSpec(names: ["-q", "--quiet"], key: "quiet", takesValue: false, help: "print nothing but errors"),
        OptionSpec(
            names: ["-v", "--verbose"], key: "verbose", takesValue: false,
            help: "log every FTP command and reply to stderr (PASS masked)"),
        OptionSpec(names: ["--progress"], key: "progress", takesValue: false, help: "show progress on stderr"),
        OptionSpec(names: ["--no-progress"], key: "no-progress", takesValue: false, help: "no progress display"),
        OptionSpec(
            names: ["--log"], key: "log", takesValue: true, valueName: "FILE",
            help: "append timestamped lines (each action and error, a summary) to FILE"),
    ]

    static var push: String {
        text(
            for: "push", options: pushOptions, usage: "ftpsync push [CONFIG] [options]",
            summary: """
                Copy the local tree to each device: new and changed files are uploaded under a temporary
                name and renamed into place when complete (interrupted uploads resume). A remote file that
                changed since the last sync is never overwritten: it is reported as a conflict.
                Several devices may share one local folder (the same content goes to each).
                """,
            example: "ftpsync push fleet.yaml --device front-camera --dry-run")
    }

    static var ls: String {
        text(
            for: "ls",
            options: [
                OptionSpec(
                    names: ["--json"], key: "json", takesValue: false,
                    help: "print one JSON document: device, path, entries"),
                OptionSpec(
                    names: ["-v", "--verbose"], key: "verbose", takesValue: false,
                    help: "log every FTP command and reply to stderr (PASS masked)"),
            ], usage: "ftpsync ls [CONFIG] DEVICE[:PATH] [--json]",
            summary: """
                List one folder of a device as ftpsync understands it (MLSD, or LIST parsed): type, size,
                modification time in UTC, link target. PATH is relative to the device's remote root;
                default: the root itself. Useful to check time zones and name encodings.
                """,
            example: "ftpsync ls device.yaml front-camera:2024 --json")
    }

    static var check: String {
        text(
            for: "check",
            options: [
                OptionSpec(
                    names: ["--device"], key: "device", takesValue: true, valueName: "NAME",
                    help: "only this device; repeatable"),
                OptionSpec(names: ["--json"], key: "json", takesValue: false, help: "print one JSON document"),
                OptionSpec(
                    names: ["-v", "--verbose"], key: "verbose", takesValue: false,
                    help: "log every FTP command and reply to stderr (PASS masked)"),
            ], usage: "ftpsync check [CONFIG] [--device NAME]... [--json]",
            summary: """
                Connect to each device, log in, and report what its server supports (FEAT: MLSD, MDTM,
                SIZE, REST STREAM, UTF8, TLS), the listing format it answers with, and what failed.
                Changes nothing.
                """,
            example: "ftpsync check device.yaml")
    }
}
