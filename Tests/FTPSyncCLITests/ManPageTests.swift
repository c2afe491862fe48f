// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import FTPSyncCLI

/// docs/ftpsync.1 against the commands' definitions: every option of every command is in the
/// man page, and every option the man page names exists.
@Suite struct ManPageTests {
    /// The man page with roff's `\-` as `-`.
    private func manPage() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("docs/ftpsync.1"), encoding: .utf8)
            .replacingOccurrences(of: "\\-", with: "-")
    }

    /// Every spelling of every option of `ftpsync` and its commands.
    private var spellings: Set<String> {
        let root = CommandSpec.root
        return Set(root.spellings + CommandSpec.parserOptions + (root.subcommands ?? []).flatMap(\.spellings))
    }

    @Test(arguments: ["pull", "push", "sync", "apply", "ls", "check", "status", "verify"])
    func theManPageNamesEveryOption(command: String) throws {
        let man = try manPage()
        let spec = try #require(CommandSpec.root.subcommand(command))
        #expect(!spec.options.isEmpty)
        for option in spec.options {
            for spelling in option.spellings {
                #expect(man.contains(spelling), "ftpsync.1 lacks \(spelling) of \(command)")
            }
        }
        #expect(man.contains(".B \(command)") || man.contains(".BR \(command)"), "ftpsync.1 lacks \(command)")
    }

    @Test func everyOptionTheManPageNamesExists() throws {
        let named = Set(
            try manPage().matches(of: /(?:^|[^A-Za-z0-9-])(--[a-z][a-z-]*[a-z])/).map { String($0.output.1) })
        #expect(named.count >= 15)
        let unknown = named.subtracting(spellings)
        #expect(unknown.isEmpty, "ftpsync.1 names options no command has: \(unknown.sorted())")
    }
}
