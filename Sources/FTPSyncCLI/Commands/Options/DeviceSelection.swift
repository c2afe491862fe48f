import ArgumentParser

/// `--device NAME`, repeatable: the devices a command works on (none: every device).
struct DeviceSelection: ParsableArguments {
    @Option(
        name: .customLong("device"),
        help: ArgumentHelp("only this device; repeatable", discussion: "every device", valueName: "NAME"))
    var names: [String] = []
}
