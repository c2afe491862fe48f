// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncConfig

/// Loads the configuration for a command the way every command should: parse and validate,
/// warn (on stderr) when a file holding a password is readable by others, and fill in passwords
/// from `~/.netrc` for devices that name none.
/// - Parameters:
///   - path: the configuration file as the user gave it.
///   - environment: the process environment (`HOME` locates `.netrc`; `password_env` variables).
///   - console: where warnings go.
/// - Throws: `ConfigError` from `ConfigLoader.load`.
func loadConfiguration(path: String, environment: [String: String], console: Console) throws(ConfigError)
    -> Configuration
{
    var configuration = try ConfigLoader.load(path: path, environment: environment)
    defer { console.filter.protect(configuration) }
    if let warning = ConfigHygiene.permissionWarning(configPath: path) { console.error(warning) }
    guard configuration.devices.contains(where: { $0.password == nil }),
        let home = environment["HOME"], !home.isEmpty
    else { return configuration }
    let netrcPath = (home.hasSuffix("/") ? home : home + "/") + ".netrc"
    guard let text = try? String(contentsOfFile: netrcPath, encoding: .utf8) else { return configuration }
    let netrc = Netrc(text: text)
    configuration.devices = configuration.devices.map { ConfigHygiene.applying(netrc, to: $0) }
    if netrc.entries.contains(where: { $0.password != nil }),
        let warning = ConfigHygiene.permissionWarning(path: netrcPath, what: "holds passwords")
    {
        console.error(warning)
    }
    return configuration
}

/// Checks that keep secrets secret.
enum ConfigHygiene {
    /// A warning when the file at `configPath` holds a `password` key and group or others may
    /// read it (as ssh warns about a private key); nil otherwise or when it cannot be read.
    static func permissionWarning(configPath: String) -> String? {
        guard let text = try? String(contentsOfFile: configPath, encoding: .utf8), holdsLiteralPassword(text) else {
            return nil
        }
        return permissionWarning(path: configPath, what: "holds a password")
    }

    /// `ftpsync: warning: PATH holds a password and is readable by others (mode 0644); fix: chmod 600 PATH`
    /// when group or others may read `path`; nil when they may not or it cannot be examined.
    static func permissionWarning(path: String, what: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let mode = info.st_mode & 0o777
        guard mode & 0o044 != 0 else { return nil }
        let octal = String(mode, radix: 8)
        let padded = String(repeating: "0", count: max(0, 4 - octal.count)) + octal
        return "ftpsync: warning: \(path) \(what) and is readable by others (mode \(padded)); "
            + "fix: chmod 600 \(path), or use password_env (proxy_password_env for a proxy's)"
    }

    /// True when the YAML `text` has a `password:` key (not `password_env:`), or a proxy URL with
    /// a password (`socks5://user:secret@host`), outside comments.
    static func holdsLiteralPassword(_ text: String) -> Bool {
        for rawLine in text.split(separator: "\n") {
            let line = withoutComment(rawLine)
            if line.contains(/(?i)(socks5h?|http):\/\/[^\s\/@]*:[^\s\/@]*@/) { return true }
            var rest = line[...]
            while let range = rest.range(of: "password") {
                let before = range.lowerBound == line.startIndex ? nil : line[line.index(before: range.lowerBound)]
                let after = line[range.upperBound...].drop { $0 == " " || $0 == "\t" }
                let startsKey = before == nil || before.map { " \t-{,\"'".contains($0) } == true
                let quoteClosed = after.hasPrefix("\"") || after.hasPrefix("'")
                let afterKey = quoteClosed ? after.dropFirst().drop { $0 == " " } : after
                if startsKey && afterKey.hasPrefix(":") { return true }
                rest = line[range.upperBound...]
            }
        }
        return false
    }

    /// The line up to a `#` that starts a comment (at the start or after a blank, outside quotes).
    private static func withoutComment(_ line: Substring) -> String {
        var out = ""
        var quote: Character?
        var previous: Character = " "
        for character in line {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "#" && (previous == " " || previous == "\t") {
                break
            }
            out.append(character)
            previous = character
        }
        return out
    }

    /// `device` with its login from `netrc` when it names no password (neither `password` nor
    /// `password_env`): the entry of its host (or the `default` entry) supplies the password,
    /// and the user too when the device keeps the default `anonymous`. An entry whose login
    /// differs from a user the device names is not used.
    static func applying(_ netrc: Netrc, to device: DeviceConfig) -> DeviceConfig {
        guard device.password == nil, let entry = netrc.entry(forHost: device.host), let password = entry.password
        else { return device }
        var device = device
        if let login = entry.login, login != device.user {
            guard device.user == "anonymous" else { return device }
            device.user = login
        }
        device.password = password
        return device
    }
}
