/// Help pages of the commands whose parsers live elsewhere (written from CONTRACT.md).
extension Help {
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
