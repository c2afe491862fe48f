// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// A value with the position of the node it came from.
struct Located<Value> {
    let value: Value
    let position: SourcePosition
}

/// Where a device's password comes from.
enum PasswordSource {
    case literal(String)
    /// The name of an environment variable.
    case environment(String)
}

/// The device keys of one mapping (a device or `defaults`), each validated on its own and
/// nil when absent. Merging with defaults and built-in defaults happens in `DeviceBuilder`.
struct DeviceFields {
    /// Every key a device may hold; `defaults` may hold all but `name`.
    static let keys = [
        "name", "host", "port", "user", "password", "password_env", "remote", "local", "tls", "fingerprint",
        "passive_address", "passive", "connections", "timeout", "timezone", "encoding", "exclude", "retries", "min_age",
        "insecure", "accept_new_identity", "on_conflict", "order", "hidden",
        "bwlimit", "keepalive", "segments", "segment_threshold", "max_connections",
        "remove_source", "remove_source_folders", "verify",
        "include", "filter_from", "min_size", "max_size", "max_age", "proxy", "proxy_password_env",
    ]

    var name: Located<String>?
    var host: String?
    var port: Int?
    var user: String?
    var password: Located<PasswordSource>?
    var remote: String?
    var local: Located<String>?
    var tls: TLSMode?
    var fingerprint: String?
    var passiveAddress: PassiveAddressMode?
    var passive: Located<Bool>?
    var hidden: Bool?
    var connections: Int?
    var timeout: Double?
    var timezone: TimeZone?
    var encoding: String?
    var exclude: [String]?
    var retries: Int?
    var minAge: Int?
    var include: [String]?
    var filterFrom: Located<String>?
    var minSize: Int64?
    var maxSize: Int64?
    var maxAge: Int?
    var insecure: Bool?
    var acceptNewIdentity: Bool?
    var onConflict: ConflictPolicy?
    var order: TransferOrder?
    /// Bytes per second; 0: no limit (`off`, to lift one `defaults` sets).
    var bwlimit: Int64?
    /// A daily schedule of `bwlimit` instead (`08:00,512k 18:00,off`), in the machine's zone
    /// until `DeviceBuilder` sets the device's.
    var bwlimitSchedule: BandwidthSchedule?
    var keepalive: Int?
    var segments: Int?
    var segmentThreshold: Int64?
    var maxConnections: Int?
    var removeSource: Bool?
    var removeSourceFolders: Bool?
    var verify: VerifyMode?
    /// `proxy`: `.some(nil)` for `none` (it lifts a proxy `defaults` sets); nil when absent.
    var proxy: Located<ProxySetting?>?
    /// `proxy_password_env`: the name of the variable holding the proxy's password.
    var proxyPasswordEnv: Located<String>?
    /// An unknown `timezone` name: it fails the device only, not the file.
    var timezoneProblem: ConfigError?

    /// Reads the pairs of a device mapping (`isDefaults` false) or of `defaults` (true).
    /// - Throws: `ConfigError` for an unknown key, `name` under `defaults`, a value of the wrong
    ///   type or out of range, both `password` and `password_env`, or both a password in `proxy`
    ///   and `proxy_password_env`.
    init(pairs: [YAMLNode.Pair], isDefaults: Bool, reader: NodeReader) throws(ConfigError) {
        let validKeys = isDefaults ? DeviceFields.keys.filter { $0 != "name" } : DeviceFields.keys
        let place = isDefaults ? "in 'defaults'" : "in a device"
        for pair in pairs {
            let key = pair.key.scalarText ?? ""
            if isDefaults && key == "name" {
                throw reader.error(at: pair.key.position, "'name' cannot be set in 'defaults': each device has its own")
            }
            if key == "proxy_password" {
                throw reader.error(
                    at: pair.key.position,
                    "unknown key 'proxy_password' \(place): did you mean 'proxy_password_env' (the name of a variable "
                        + "holding it)? A password may also be written in the URL: socks5://user:password@host:port")
            }
            try reader.checkKnown(pair.key, among: validKeys, in: place)
            try read(key: key, pair.value, reader: reader)
        }
        try Self.checkProxyPasswordSources(proxy, proxyPasswordEnv, reader: reader)
    }

    private mutating func read(key: String, _ node: YAMLNode, reader: NodeReader) throws(ConfigError) {
        switch key {
        case "name":
            let name = try reader.string(node, key: key)
            guard isValidDeviceName(name) else {
                throw reader.error(
                    at: node.position,
                    "invalid device name '\(name)': use only letters, digits, '.', '_' and '-' (not '.' or '..')")
            }
            self.name = Located(value: name, position: node.position)
        case "host": host = try readHost(node, reader: reader)
        case "port": port = try reader.integer(node, key: key, in: 1...65_535)
        case "user": user = try reader.string(node, key: key)
        case "password", "password_env":
            if let existing = password {
                let other = key == "password" ? "password_env" : "password"
                throw reader.error(
                    at: node.position,
                    "'password' and 'password_env' cannot both be set ('\(other)' is at line "
                        + "\(existing.position.line), column \(existing.position.column))")
            }
            let text = try reader.string(node, key: key)
            password = Located(value: key == "password" ? .literal(text) : .environment(text), position: node.position)
        case "remote": remote = try reader.string(node, key: key)
        case "local": local = Located(value: try readDeviceFolder(node, reader: reader), position: node.position)
        case "tls": tls = try reader.choice(node, key: key)
        case "fingerprint":
            let text = try reader.string(node, key: key)
            guard let normalized = normalizeFingerprint(text) else {
                throw reader.error(
                    at: node.position,
                    "'fingerprint' must be a SHA-256 digest: 64 hex digits, colons and a 'sha256:' prefix allowed")
            }
            fingerprint = normalized
        case "passive_address": passiveAddress = try reader.choice(node, key: key)
        case "passive": passive = Located(value: try reader.boolean(node, key: key), position: node.position)
        case "hidden": hidden = try reader.boolean(node, key: key)
        case "connections": connections = try reader.integer(node, key: key, in: 1...16)
        case "timeout": timeout = try reader.seconds(node, key: key)
        case "timezone":
            let text = try reader.string(node, key: key)
            guard let zone = parseTimeZone(text) else {
                // The file's shape is fine: this device fails, the others run (issue 14 item 12).
                timezoneProblem = reader.error(
                    at: node.position,
                    "unknown time zone '\(text)' in 'timezone': use an offset like +08:00, UTC, "
                        + "or a name like Asia/Shanghai")
                return
            }
            timezone = zone
        case "encoding":
            let text = try reader.string(node, key: key).lowercased()
            guard ConfigLoader.knownEncodings.contains(text) else {
                throw reader.error(
                    at: node.position,
                    "unknown encoding '\(text)' in 'encoding': use utf-8, gbk, gb18030, big5, shift_jis, "
                        + "euc-jp, euc-kr, latin1, iso-8859-N, cp125N, koi8-r, ...")
            }
            encoding = text
        case "exclude": exclude = try patterns(node, key: key, reader: reader)
        case "retries": retries = try reader.integer(node, key: key, in: 0...100)
        case "min_age": minAge = try duration(node, key: key, reader: reader)
        case "include": include = try patterns(node, key: key, reader: reader)
        case "filter_from":
            filterFrom = Located(value: try reader.string(node, key: key), position: node.position)
        case "min_size": minSize = try size(node, key: key, reader: reader)
        case "max_size": maxSize = try size(node, key: key, reader: reader)
        case "max_age": maxAge = try duration(node, key: key, reader: reader)
        case "insecure": insecure = try reader.boolean(node, key: key)
        case "accept_new_identity": acceptNewIdentity = try reader.boolean(node, key: key)
        case "on_conflict": onConflict = try reader.choice(node, key: key)
        case "order": order = try reader.choice(node, key: key)
        case "bwlimit":
            if let text = node.scalarText, text.contains(":") {
                do {
                    bwlimitSchedule = try BandwidthSchedule.read(text, timeZone: .current)
                } catch {
                    throw reader.error(
                        at: node.position,
                        "'bwlimit' schedule must be times of day with rates, like \"08:00,512k 18:00,off\": \(error)")
                }
            } else {
                bwlimit = try reader.rate(node, key: key)
            }
        case "keepalive": keepalive = try reader.integer(node, key: key, in: 0...86_400)
        case "segments": segments = try reader.integer(node, key: key, in: 1...16)
        case "max_connections": maxConnections = try reader.integer(node, key: key, in: 1...16)
        case "segment_threshold": segmentThreshold = try size(node, key: key, reader: reader)
        case "remove_source": removeSource = try reader.boolean(node, key: key)
        case "remove_source_folders": removeSourceFolders = try reader.boolean(node, key: key)
        case "verify": verify = try reader.choice(node, key: key)
        case "proxy": proxy = Located(value: try readProxy(node, reader: reader), position: node.position)
        case "proxy_password_env":
            proxyPasswordEnv = Located(value: try reader.string(node, key: key), position: node.position)
        default: break  // checkKnown refused every other key
        }
    }

    /// A list of glob patterns (`exclude`, `include`).
    private func patterns(_ node: YAMLNode, key: String, reader: NodeReader) throws(ConfigError) -> [String] {
        var patterns: [String] = []
        for item in try reader.sequence(node, "'\(key)'") {
            let pattern = try reader.string(item, key: key)
            do {
                _ = try FilterRules(excluding: [pattern])
            } catch {
                throw reader.error(
                    at: item.position,
                    error.tooManyAlternatives
                        ? "the pattern '\(pattern.prefix(80))' in '\(key)' has too many {a,b} alternatives (at most"
                            + " \(BraceAlternatives.maximumCount) patterns from one, \(BraceAlternatives.maximumGroups)"
                            + " groups, \(BraceAlternatives.maximumLength) characters); split it"
                        : "an empty pattern in '\(key)' (slashes and ./ alone name no path)")
            }
            patterns.append(pattern)
        }
        return patterns
    }

    /// A size (`ByteSizeText`: `4096`, `512k`, `10M`, `1.5G`), in bytes.
    private func size(_ node: YAMLNode, key: String, reader: NodeReader) throws(ConfigError) -> Int64 {
        guard !node.isNull, let bytes = ByteSizeText.bytes(node.scalarText ?? "") else {
            throw reader.error(
                at: node.position,
                "'\(key)' must be a size like 4096, 512k, 10M or 1.5G, found \(node.shortDescription)")
        }
        return bytes
    }

    /// A duration (`DurationText`: `90s`, `15m`, `2h`, `7d`; a bare number is seconds), in seconds.
    private func duration(_ node: YAMLNode, key: String, reader: NodeReader) throws(ConfigError) -> Int {
        guard !node.isNull, let seconds = DurationText.seconds(node.scalarText ?? "") else {
            throw reader.error(
                at: node.position,
                "'\(key)' must be a duration like 90s, 15m, 2h or 7d (a bare number is seconds), "
                    + "found \(node.shortDescription)")
        }
        return seconds
    }

    /// A host name or address: no spaces; brackets around an IPv6 address are removed.
    private func readHost(_ node: YAMLNode, reader: NodeReader) throws(ConfigError) -> String {
        var host = try reader.string(node, key: "host")
        if host.hasPrefix("[") && host.hasSuffix("]") && host.count > 2 {
            host = String(host.dropFirst().dropLast())
        }
        guard !host.contains(where: \.isWhitespace), !host.contains("/") else {
            throw reader.error(
                at: node.position, "'host' must be a host name or address without spaces or '/', found '\(host)'")
        }
        // `10.0.0.5:2121` or `[::1]:2121`: a port in the host (one colon, or after brackets).
        if let port = Self.portInHost(host) {
            throw reader.error(
                at: node.position,
                "'host' holds a port ('\(host)'): put the port in `port: \(port.port)` and write `host: \(port.host)`")
        }
        return host
    }

    /// The host and port of `HOST:PORT` or `[IPv6]:PORT` (a port written into `host`); nil for a
    /// plain name or a bare IPv6 address (several colons, no brackets).
    static func portInHost(_ text: String) -> (host: String, port: String)? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        let port = text[text.index(after: colon)...]
        var host = text[..<colon]
        guard !port.isEmpty, port.allSatisfy({ $0.isASCII && $0.isNumber }), !host.isEmpty else { return nil }
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = host.dropFirst().dropLast()
        } else if host.contains(":") {
            return nil
        }
        return (String(host), String(port))
    }

    /// A device folder: relative to the top-level `local`, never leaving it or entering `.ftpsync`.
    private func readDeviceFolder(_ node: YAMLNode, reader: NodeReader) throws(ConfigError) -> String {
        let folder = try reader.string(node, key: "local")
        var depth = 0
        var leaves = false
        for component in folder.split(separator: "/") where component != "." {
            depth += component == ".." ? -1 : 1
            leaves = leaves || depth < 0
        }
        guard !folder.hasPrefix("/"), !folder.hasPrefix("~"), !leaves else {
            throw reader.error(
                at: node.position,
                "a device's 'local' must be a folder under the top-level 'local' (relative, not leading out "
                    + "with '..'), found '\(folder)'")
        }
        if let problem = deviceFolderProblem(folder) { throw reader.error(at: node.position, problem) }
        return folder
    }
}

/// Why `folder` (relative to the top-level `local`) cannot hold a device's files, or nil: it must
/// be a folder strictly below the top-level `local`, and never `.ftpsync` or inside it, where
/// ftpsync keeps its state, lock, partial downloads and trash.
func deviceFolderProblem(_ folder: String) -> String? {
    let inside = absolutePath(folder, relativeTo: "/root")
    if inside == "/root" {
        return "a device's 'local' must be a folder below the top-level 'local', not the top-level folder itself"
    }
    if inside == "/root/.ftpsync" || inside.hasPrefix("/root/.ftpsync/") {
        return "a device's 'local' cannot be '.ftpsync' or inside it (ftpsync's own folder)"
    }
    return nil
}
