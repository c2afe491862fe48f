// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import PackagePlugin

/// Bakes the version `git describe` gives into the target: `scripts/version.sh --swift`
/// (`/bin/sh`, and git when there is one) writes `BuildVersion.swift` with
/// `ftpsyncBuildVersion`, and leaves the file alone when the version did not change.
///
/// A build command, not a prebuild one: SwiftPM runs prebuild commands only when it plans the
/// build anew, so a new commit or tag went unseen by a build with nothing else to do. This one
/// runs whenever one of its inputs changed: git's HEAD, index, reflog, packed refs and tags
/// (a commit, a checkout, a tag, `git add`), and the package's sources (a tree made dirty).
@main
struct VersionPlugin: BuildToolPlugin {
    /// The build command that writes `BuildVersion.swift` into the plugin's work folder.
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let package = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildVersion.swift")
        let git = package.appending(path: ".git")
        var inputs = ["HEAD", "index", "logs/HEAD", "packed-refs", "refs/tags"].map { git.appending(path: $0) }
            .filter { FileManager.default.fileExists(atPath: $0.path(percentEncoded: false)) }
        for module in context.package.targets.compactMap({ $0.sourceModule }) {
            inputs += module.sourceFiles.map(\.url)
        }
        let script = package.appending(path: "scripts/version.sh")
        inputs.append(script)
        return [
            .buildCommand(
                displayName: "ftpsync version from git describe",
                executable: URL(filePath: "/bin/sh"),
                arguments: [script.path(percentEncoded: false), "--swift", output.path(percentEncoded: false)],
                inputFiles: inputs, outputFiles: [output])
        ]
    }
}
