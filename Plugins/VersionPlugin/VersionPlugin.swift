// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import PackagePlugin

/// Bakes the version `git describe` gives into the target: before each build it runs
/// `scripts/version.sh --swift` (`/bin/sh`, git when there is one), which writes
/// `BuildVersion.swift` with `ftpsyncBuildVersion` and leaves the file alone when the version did
/// not change, so an unchanged version rebuilds nothing.
@main
struct VersionPlugin: BuildToolPlugin {
    /// The prebuild command that writes `BuildVersion.swift` into the plugin's work folder.
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "Generated")
        let script = context.package.directoryURL.appending(path: "scripts/version.sh")
        return [
            .prebuildCommand(
                displayName: "ftpsync version from git describe",
                executable: URL(filePath: "/bin/sh"),
                arguments: [
                    script.path(percentEncoded: false), "--swift",
                    output.appending(path: "BuildVersion.swift").path(percentEncoded: false),
                ],
                outputFilesDirectory: output)
        ]
    }
}
