// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncConfig
import Testing

@testable import FTPSyncCLI

@Suite struct ConfigHygieneTests {
    @Test(arguments: [
        ("devices:\n  - name: a\n    password: x\n", true),
        ("devices:\n  - {name: a, password: x}\n", true),
        ("defaults:\n  password:   x\n", true),
        ("devices:\n  - password: x\n", true),
        ("devices:\n  - name: a\n    password_env: X\n", false),
        ("devices:\n  - name: a  # password: x\n", false),
        ("# password: x\nlocal: .\n", false),
        ("devices:\n  - name: a\n    user: \"password\"\n", false),
        ("devices:\n  - name: a\n    mypassword: x\n", false),
        // issue 22: a password in a proxy URL, in a device or in `defaults` (the fresh user's find)
        ("devices:\n  - name: a\n    proxy: socks5://alice:Zq7@127.0.0.1:1080\n", true),
        ("defaults:\n  proxy: \"HTTP://bob:pw@proxy.example:3128\"\n", true),
        ("devices:\n  - name: a\n    proxy: socks5h://alice@127.0.0.1:1080\n", false),
        ("devices:\n  - name: a\n    proxy: http://[::1]:3128  # http://u:p@x\n", false),
    ])
    func literalPasswordIsFound(text: String, expected: Bool) {
        #expect(ConfigHygiene.holdsLiteralPassword(text) == expected)
    }

    @Test(arguments: [(0o600, false), (0o640, true), (0o604, true), (0o400, false)])
    func readableByOthersWarns(mode: Int, warns: Bool) throws {
        let path = NSTemporaryDirectory() + "ftpsync-hygiene-\(UUID().uuidString).yaml"
        try "local: .\ndevices:\n  - name: a\n    host: h\n    password: x\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        chmod(path, mode_t(mode))
        let warning = ConfigHygiene.permissionWarning(configPath: path)
        #expect((warning != nil) == warns)
        if warns { #expect(warning?.contains("mode 0\(String(mode, radix: 8))") == true) }
    }
}

@Suite struct NetrcTests {
    static let text = """
        # comment lines are not tokens of netrc, but words are skipped when unknown
        machine cam.local login camera password "pa ss\\"word"
        machine 127.0.0.5
          login tester
          password t3st
        macdef init
        machine evil login no password no

        default login anonymous password guest@
        """

    @Test(arguments: [
        ("cam.local", "camera", "pa ss\"word"),
        ("127.0.0.5", "tester", "t3st"),
        ("other", "anonymous", "guest@"),
        ("evil", "anonymous", "guest@"),
    ])
    func entries(host: String, login: String, password: String) {
        let entry = Netrc(text: Self.text).entry(forHost: host)
        #expect(entry?.login == login)
        #expect(entry?.password == password)
    }

    @Test func appliesOnlyToDevicesWithoutAPassword() {
        let netrc = Netrc(text: "machine h login bob password pw\n")
        let plain = DeviceConfig(name: "a", host: "h", localPath: "/m/a")
        #expect(ConfigHygiene.applying(netrc, to: plain).user == "bob")
        #expect(ConfigHygiene.applying(netrc, to: plain).password == "pw")
        let own = DeviceConfig(name: "a", host: "h", localPath: "/m/a", password: "mine")
        #expect(ConfigHygiene.applying(netrc, to: own).password == "mine")
        let otherUser = DeviceConfig(name: "a", host: "h", localPath: "/m/a", user: "alice")
        #expect(ConfigHygiene.applying(netrc, to: otherUser).password == nil)
        let otherHost = DeviceConfig(name: "a", host: "x", localPath: "/m/a")
        #expect(ConfigHygiene.applying(netrc, to: otherHost).password == nil)
    }
}

@Suite struct StatusAndHelpTests {
    @Test func statusWithoutStateHasNullLastSync() throws {
        let configuration = Configuration(
            localRoot: "/nonexistent/ftpsync-status", devices: [DeviceConfig(name: "cam", host: "h", localPath: "/x")],
            configPath: "/c.yaml")
        let document = try StatusDocument.read(
            configuration,
            StatusDocument.Request(devices: configuration.devices, staleWindow: nil, events: nil, now: Date()))
        let text = jsonText(document)
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        let device = (object?["devices"] as? [[String: Any]])?.first
        #expect(device?["last_sync"] is NSNull)
        #expect(device?["identity_known"] as? Bool == false)
        #expect(StatusTable.text(document, width: 200).contains("never"))
    }

    @Test(arguments: Help.commands)
    func everyPageListsItsOptionsAndAnExample(command: String) throws {
        let page = try #require(Help.page(for: command))
        #expect(page.hasPrefix("usage: ftpsync \(command)"))
        #expect(page.contains("example:"))
        if command == "pull" {
            let spec = try #require(CommandSpec.root.subcommand("pull"))
            #expect(spec.options.count >= 14)
            for option in spec.options { #expect(page.contains(option.spellings.last ?? "?")) }
        }
    }

    @Test func logFileLinesAreStampedAndFlat() throws {
        let path = NSTemporaryDirectory() + "ftpsync-log-\(UUID().uuidString)"
        defer { unlink(path) }
        let log = try LogFile(path: path)
        log.write(
            LogEvent(command: "pull", dryRun: false, detail: .locked("two\nlines")), at: Date(timeIntervalSince1970: 0))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == "1970-01-01T00:00:00Z ftpsync[\(getpid())] two lines\n")
    }
}
