// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 24: `scripts/version.sh` turns `git describe` into the version `--version` prints and
/// the Debian package carries, in every state a source tree can be in, and the forms sort as
/// the builds do (`dpkg --compare-versions`). Each case runs the script copied into a
/// repository of its own. (A breaker found release candidates sorting after their release,
/// an untagged clone sorting after tagged builds, and a tree inside another repository
/// taking that repository's tags.)
@Suite struct VersionScriptTests {
    /// A repository at `root` with the script in `scripts/` and one commit.
    private func repository(_ root: String) throws {
        try FileManager.default.createDirectory(atPath: root + "/scripts", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: packageRoot + "/scripts/version.sh", toPath: root + "/scripts/version.sh")
        try git(root, ["init", "-q"])
        try git(root, ["add", "."])
        try git(root, ["commit", "-q", "-m", "first"])
    }

    @discardableResult
    private func git(_ root: String, _ arguments: [String]) throws -> String {
        let result = try run(
            "/usr/bin/git", ["-C", root, "-c", "user.name=t", "-c", "user.email=t@example.org"] + arguments)
        #expect(result.status == 0, "git \(arguments): \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func version(_ root: String) throws -> String {
        try run("/bin/sh", [root + "/scripts/version.sh"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func sorts(_ a: String, before b: String) throws -> Bool {
        try run("/usr/bin/dpkg", ["--compare-versions", a, "lt", b]).status == 0
    }

    @Test func everyStateOfATreeGivesADebianVersionThatSortsAsTheBuildsDo() throws {
        let root = try makeTemporaryFolder("version") + "/src"
        try repository(root)
        let hash = try git(root, ["rev-parse", "--short", "HEAD"])
        let untagged = try version(root)
        #expect(untagged.hasPrefix("0.") && untagged.hasSuffix("~untagged.\(hash)"), "\(untagged)")

        try git(root, ["tag", "v0.1.0"])
        #expect(try version(root) == "0.1.0")
        #expect(try sorts("0.1.0", before: untagged))
        try "x".write(toFile: root + "/file", atomically: true, encoding: .utf8)
        try git(root, ["add", "file"])
        #expect(try version(root) == "0.1.0+dirty")
        try git(root, ["commit", "-q", "-m", "second"])
        let second = try git(root, ["rev-parse", "--short", "HEAD"])
        let after = try version(root)
        #expect(after == "0.1.0+git1.\(second)")
        #expect(try sorts("0.1.0", before: after))
        try "y".write(toFile: root + "/file", atomically: true, encoding: .utf8)
        #expect(try version(root) == "0.1.0+git1.\(second).dirty")
        try git(root, ["checkout", "-q", "file"])

        // A release candidate sorts before its release and after what came before it.
        try git(root, ["tag", "v0.2.0-rc1"])
        #expect(try version(root) == "0.2.0~rc1")
        #expect(try sorts(after, before: "0.2.0~rc1"))
        #expect(try sorts("0.2.0~rc1", before: "0.2.0"))
        try git(root, ["tag", "v0.2.0"])
        #expect(try version(root) == "0.2.0")

        // A tree copied without its .git into another repository does not take that one's tags.
        let outer = try makeTemporaryFolder("version-outer")
        try git(outer, ["init", "-q"])
        try git(outer, ["commit", "-q", "--allow-empty", "-m", "outer"])
        try git(outer, ["tag", "v9.9.9"])
        let inner = outer + "/inner"
        try FileManager.default.createDirectory(atPath: inner + "/scripts", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: root + "/scripts/version.sh", toPath: inner + "/scripts/version.sh")
        let copied = try version(inner)
        #expect(copied.hasSuffix("~unknown"), "\(copied)")
    }
}
