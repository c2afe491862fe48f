// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Reads typed values out of YAML nodes; every refusal is a `ConfigError` at the node's position.
struct NodeReader {
    /// The configuration file's path as the user gave it.
    let file: String

    func error(at position: SourcePosition?, _ message: String) -> ConfigError {
        ConfigError(file: file, position: position, message: message)
    }

    /// The pairs of a mapping node; null counts as an empty mapping.
    func mapping(_ node: YAMLNode, _ what: String) throws(ConfigError) -> [YAMLNode.Pair] {
        if node.isNull { return [] }
        guard case .mapping(let pairs) = node.content else {
            throw error(
                at: node.position, "\(what) must be a mapping of keys to values, found \(node.shortDescription)")
        }
        return pairs
    }

    /// The items of a sequence node; null counts as an empty list.
    func sequence(_ node: YAMLNode, _ what: String) throws(ConfigError) -> [YAMLNode] {
        if node.isNull { return [] }
        guard case .sequence(let items) = node.content else {
            throw error(at: node.position, "\(what) must be a list, found \(node.shortDescription)")
        }
        return items
    }

    /// A non-empty string without NUL, CR or LF (they would end an FTP command early).
    func string(_ node: YAMLNode, key: String) throws(ConfigError) -> String {
        guard let text = node.scalarText else {
            throw error(at: node.position, "'\(key)' must be a string, found \(node.shortDescription)")
        }
        if node.isNull || text.isEmpty {
            throw error(at: node.position, "'\(key)' must not be empty")
        }
        if text.contains(where: { $0 == "\0" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) {
            throw error(at: node.position, "'\(key)' must not contain line breaks or NUL characters")
        }
        return text
    }

    /// A decimal integer (optional sign) inside `range`.
    func integer(_ node: YAMLNode, key: String, in range: ClosedRange<Int>) throws(ConfigError) -> Int {
        let text = node.scalarText?.trimmingCharacters(in: .whitespaces) ?? ""
        let digits = text.hasPrefix("+") ? String(text.dropFirst()) : text
        guard !node.isNull, let value = Int(digits), range.contains(value) else {
            throw error(
                at: node.position,
                "'\(key)' must be an integer from \(range.lowerBound) to \(range.upperBound), found \(node.shortDescription)"
            )
        }
        return value
    }

    /// A finite number of seconds greater than 0 and at most one day.
    func seconds(_ node: YAMLNode, key: String) throws(ConfigError) -> Double {
        let text = node.scalarText?.trimmingCharacters(in: .whitespaces) ?? ""
        guard !node.isNull, text.allSatisfy({ $0.isASCII && ($0.isNumber || "+.eE-".contains($0)) }),
            let value = Double(text), value.isFinite, value > 0, value <= 86_400
        else {
            throw error(
                at: node.position,
                "'\(key)' must be a number of seconds greater than 0 and at most 86400, found \(node.shortDescription)")
        }
        return value
    }

    /// Bytes per second as `ByteSizeText` reads them (`512k`, `2M`, `1.5M`), or 0 for `off` or 0.
    func rate(_ node: YAMLNode, key: String) throws(ConfigError) -> Int64 {
        let text = node.scalarText ?? ""
        if !node.isNull, text.trimmingCharacters(in: .whitespaces).lowercased() == "off" { return 0 }
        guard !node.isNull, let value = ByteSizeText.bytes(text), value > 0 || !ByteSizeText.hasNonZeroDigit(text)
        else {
            throw error(
                at: node.position,
                "'\(key)' must be at least 1 byte per second like 512k, 2M or 1.5M (or off), found"
                    + " \(node.shortDescription)")
        }
        return value
    }

    /// `true`/`false` (also `yes`/`no`, `on`/`off`), any letter case.
    func boolean(_ node: YAMLNode, key: String) throws(ConfigError) -> Bool {
        switch node.scalarText?.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default:
            throw error(at: node.position, "'\(key)' must be true or false, found \(node.shortDescription)")
        }
    }

    /// One of the raw values of `T`, compared in lowercase.
    func choice<T: RawRepresentable & CaseIterable>(_ node: YAMLNode, key: String) throws(ConfigError) -> T
    where T.RawValue == String {
        let text = node.scalarText?.lowercased() ?? ""
        if !node.isNull, let value = T(rawValue: text) { return value }
        let allowed = T.allCases.map(\.rawValue).joined(separator: ", ")
        throw error(at: node.position, "'\(key)' must be one of \(allowed); found \(node.shortDescription)")
    }

    /// Refuses `key` unless it is one of `validKeys`, suggesting the nearest valid key.
    func checkKnown(_ key: YAMLNode, among validKeys: [String], in place: String) throws(ConfigError) {
        let name = key.scalarText ?? ""
        guard !validKeys.contains(name) else { return }
        var message = "unknown key '\(name)'"
        if let suggestion = nearestKey(to: name, among: validKeys) {
            message += "; did you mean '\(suggestion)'?"
        } else {
            message += " \(place); valid keys: \(validKeys.joined(separator: ", "))"
        }
        throw error(at: key.position, message)
    }
}
