import Testing

@testable import FTPSyncCLI

@Suite struct ArgumentParserTests {
    let specs = PullCommand.options

    @Test func longShortRepeatedAndInlineValues() throws {
        let parsed = try ArgumentParser.parse(
            ["cfg.yaml", "-n", "--device", "a", "--device=b", "--json"], specs: specs)
        #expect(parsed.positionals == ["cfg.yaml"])
        #expect(parsed.has("dry-run") && parsed.has("json"))
        #expect(parsed.all("device") == ["a", "b"])
    }

    @Test(arguments: [
        (["--dry-rnu"], "unknown option '--dry-rnu'; did you mean '--dry-run'?"),
        (["--device"], "option --device needs a value (--device NAME)"),
        (["--json=yes"], "option --json takes no value"),
    ])
    func usageErrorsSayWhatIsWrong(arguments: [String], message: String) {
        #expect(throws: UsageError.self) { try ArgumentParser.parse(arguments, specs: specs) }
        do {
            _ = try ArgumentParser.parse(arguments, specs: specs)
        } catch let error as UsageError {
            #expect(error.message == message)
        } catch {}
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try ArgumentParser.parse(["--", "-weird.yaml"], specs: specs)
        #expect(parsed.positionals == ["-weird.yaml"])
    }

    @Test func configPathFallsBackToEnvironmentThenDeviceYAML() {
        #expect(resolveConfigPath("x.yaml", environment: ["FTPSYNC_CONFIG": "y"]) == "x.yaml")
        #expect(resolveConfigPath(nil, environment: ["FTPSYNC_CONFIG": "y.yaml"]) == "y.yaml")
        #expect(resolveConfigPath(nil, environment: [:]) == "device.yaml")
    }
}
