// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// The examples load, and the docs name every option the help pages list.
@Suite struct DocumentationTests {
    @Test(arguments: [
        "Examples/device.yaml", "Examples/fleet.yaml", "Examples/hooks/hooks.yaml", "Examples/jump-host.yaml",
    ])
    func exampleConfigurationsAreValid(file: String) throws {
        // status needs no password: an unset password_env variable does not stop it.
        let result = try ftpsync(["status", packageRoot + "/" + file, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect((object?["devices"] as? [Any])?.isEmpty == false)
    }

    @Test(arguments: ["pull", "push", "ls", "check", "status", "verify"])
    func docsNameEveryOption(command: String) throws {
        let page = try ftpsync(["help", command]).stdout
        let options = Set(page.matches(of: /(?:^|\s)(--[a-z][a-z-]*)/).map { String($0.output.1) })
        #expect(!options.isEmpty)
        let man = try String(contentsOfFile: packageRoot + "/docs/ftpsync.1", encoding: .utf8)
            .replacingOccurrences(of: "\\-", with: "-")
        let cli = try String(contentsOfFile: packageRoot + "/docs/cli.md", encoding: .utf8)
        for option in options {
            #expect(man.contains(option), "ftpsync.1 lacks \(option) of \(command)")
            #expect(cli.contains(option), "cli.md lacks \(option) of \(command)")
        }
    }

    /// The hook scripts pass shellcheck and the systemd units `systemd-analyze verify`
    /// (scripts/install-deps.sh installs both).
    @Test func exampleHooksAndUnitsAreClean() throws {
        let scripts = ["mail-on-failure.sh", "webhook.sh"].map { packageRoot + "/Examples/hooks/" + $0 }
        let shellcheck = try run("/usr/bin/shellcheck", ["-s", "sh"] + scripts)
        #expect(shellcheck.status == 0, "\(shellcheck.stdout)\(shellcheck.stderr)")
        // A template is verified as an instance of itself; the service runs the built binary
        // (verify checks that its command exists, and a fresh machine has no installed ftpsync).
        let units = try makeTemporaryFolder("units")
        let folder = packageRoot + "/Examples/systemd/"
        for (name, copy) in [
            ("ftpsync-pull.service", "ftpsync-pull.service"), ("ftpsync-pull.timer", "ftpsync-pull.timer"),
            ("ftpsync-failure@.service", "ftpsync-failure@ftpsync-pull.service.service"),
            ("ftpsync@.service", "ftpsync@0.service"), ("ftpsync@.timer", "ftpsync@0.timer"),
            ("ftpsync-failure@.service", "ftpsync-failure@ftpsync@0.service.service"),
        ] {
            let text = try String(contentsOfFile: folder + name, encoding: .utf8)
                .replacingOccurrences(of: "ExecStart=/usr/bin/ftpsync ", with: "ExecStart=\(ftpsyncBinary) ")
            try text.write(toFile: units + "/" + copy, atomically: true, encoding: .utf8)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: units).sorted().map { units + "/" + $0 }
        let result = try run("/usr/bin/systemd-analyze", ["verify", "--man=no"] + files)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stdout)\(result.stderr)")
    }
}
