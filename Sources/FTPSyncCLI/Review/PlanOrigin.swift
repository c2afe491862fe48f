// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree

/// What a dry run's JSON document says of how its plan was made, so that `ftpsync apply` can
/// make it again: the configuration (its absolute path and the XXH3 digest of its bytes) and
/// the options that shape a plan (`arguments`: the command line without the configuration,
/// `--dry-run` and the options of output only).
struct PlanOrigin: Codable, Equatable {
    var config: String
    var configDigest: String
    var arguments: [String]

    enum CodingKeys: String, CodingKey {
        case config
        case configDigest = "config_digest"
        case arguments
    }

    /// Options that change only the output, never the plan: left out of `arguments`.
    static let outputOnly: Set<String> = [
        "--dry-run", "--json", "--quiet", "--progress", "--no-progress", "--verbose", "-n", "-q", "-v",
    ]
    /// Options of output only that take a value.
    static let outputOnlyWithValue: Set<String> = ["--log", "--log-format", "--metrics-file"]

    /// The origin of a dry run of `command` (`pull`, `push`, `sync`) with the configuration at
    /// `configPath`, from the process's command line `commandLine` (its first word the program).
    /// Nil when the configuration cannot be read.
    static func make(command: String, configPath: String, given: String?, commandLine: [String]) -> PlanOrigin? {
        guard let bytes = FileManager.default.contents(atPath: configPath) else { return nil }
        let absolute = URL(fileURLWithPath: configPath).standardizedFileURL.path
        var words = Array(commandLine.drop { $0 != command }.dropFirst())
        if let given, let index = words.firstIndex(of: given) { words.remove(at: index) }
        var arguments: [String] = []
        var skipValue = false
        for word in words {
            if skipValue {
                skipValue = false
                continue
            }
            if outputOnlyWithValue.contains(word) {
                skipValue = true
                continue
            }
            if outputOnly.contains(word) || outputOnlyWithValue.contains(where: { word.hasPrefix($0 + "=") }) {
                continue
            }
            arguments.append(shortFlagsWithoutOutput(word))
        }
        return PlanOrigin(
            config: absolute, configDigest: XXH3Hasher.digest(of: [UInt8](bytes)),
            arguments: arguments.filter { $0 != "-" })
    }

    /// `-nq` and the like without the output letters (`n`, `q`, `v`); other words as they are.
    private static func shortFlagsWithoutOutput(_ word: String) -> String {
        guard word.hasPrefix("-"), !word.hasPrefix("--"), word.count > 2, word.dropFirst().allSatisfy(\.isLetter)
        else { return word }
        return "-" + word.dropFirst().filter { !"nqv".contains($0) }
    }
}
