// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// One `machine` (or `default`) entry of a `.netrc` file.
struct NetrcEntry: Sendable, Hashable {
    /// The host name, nil for the `default` entry.
    var machine: String?
    /// The `login` token, nil when absent.
    var login: String?
    /// The `password` token, nil when absent.
    var password: String?
}

/// The entries of a `.netrc` file (the format of ftp(1), curl and lftp): whitespace-separated
/// tokens `machine NAME`, `default`, `login NAME`, `password TEXT`, `account TEXT` and
/// `macdef NAME` (a macro, skipped to the next empty line). A token may be written in double
/// quotes with `\` escapes. Unknown tokens are ignored.
struct Netrc: Sendable, Hashable {
    /// The entries in file order.
    var entries: [NetrcEntry]

    /// Parses `text`; never fails (what cannot be understood is skipped).
    init(text: String) {
        var entries: [NetrcEntry] = []
        var tokens = Netrc.tokens(text)[...]
        while let token = tokens.popFirst() {
            switch token {
            case "machine":
                entries.append(NetrcEntry(machine: tokens.popFirst() ?? ""))
            case "default":
                entries.append(NetrcEntry(machine: nil))
            case "login":
                let value = tokens.popFirst()
                if !entries.isEmpty { entries[entries.count - 1].login = value }
            case "password":
                let value = tokens.popFirst()
                if !entries.isEmpty { entries[entries.count - 1].password = value }
            case "account":
                _ = tokens.popFirst()
            default:
                break
            }
        }
        self.entries = entries
    }

    /// The entry for `host`: the first `machine` with that exact name, else the `default` entry.
    func entry(forHost host: String) -> NetrcEntry? {
        entries.first { $0.machine == host } ?? entries.first { $0.machine == nil }
    }

    /// Splits into tokens, honouring double quotes and dropping `macdef` bodies.
    private static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.popFirst() {
            let words = words(in: Substring(line))
            if let index = words.firstIndex(of: "macdef") {
                tokens += words[..<index]
                // The macro runs to the next empty line.
                while let next = lines.popFirst(), !next.trimmingCharacters(in: .whitespaces).isEmpty {}
                continue
            }
            tokens += words
        }
        return tokens
    }

    private static func words(in line: Substring) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quoted = false
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" && quoted {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
                inWord = true
            } else if !quoted && (character == " " || character == "\t" || character == "\r") {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
