// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// One rule of a filter as written: `+ GLOB` keeps what matches, `- GLOB` leaves it out.
public struct FilterRule: Sendable, Hashable {
    /// True for `+` (keep), false for `-` (leave out).
    public var include: Bool
    /// The glob as written (see `FilterRules`).
    public var pattern: String

    /// A rule keeping (`include`) or leaving out what matches `pattern`.
    public init(include: Bool, pattern: String) {
        self.include = include
        self.pattern = pattern
    }

    /// The rules in the order they apply: the lines of `filter_from`/`--filter-from` first,
    /// then the `exclude` patterns, then the `include` patterns (the first match decides, so an
    /// exclude wins over an include that matches the same path).
    public static func combining(filterFrom: [FilterRule], exclude: [String], include: [String]) -> [FilterRule] {
        filterFrom + exclude.map { FilterRule(include: false, pattern: $0) }
            + include.map { FilterRule(include: true, pattern: $0) }
    }

    /// A line of a filter file that is neither a rule, a comment nor blank.
    public struct LineError: Error, Sendable, Hashable, CustomStringConvertible {
        /// 1-based line number.
        public var line: Int
        /// What is wrong.
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// Most lines a filter file may hold (rules, comments and blanks).
    public static let maximumLines = 100_000

    /// Parses a filter file: `+ GLOB` or `- GLOB` (one space after the sign; the rest of the line
    /// is the glob, a trailing CR dropped), `#` comments (the first non-blank character) and
    /// blank lines ignored.
    /// - Throws: `LineError` with the line number for any other line, an empty glob, or more
    ///   than `maximumLines` lines.
    public static func parseFile(_ text: String) throws(LineError) -> [FilterRule] {
        var rules: [FilterRule] = []
        var number = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            number += 1
            if number > maximumLines {
                throw LineError(line: number, message: "more than \(maximumLines) lines; split the filter")
            }
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard line.count >= 3, line.hasPrefix("+ ") || line.hasPrefix("- ") else {
                throw LineError(
                    line: number,
                    message: "expected '+ GLOB' or '- GLOB' (or a # comment), found '\(String(line.prefix(80)))'")
            }
            let pattern = String(line.dropFirst(2))
            guard pattern.contains(where: { $0 != "/" && $0 != " " }) else {
                throw LineError(line: number, message: "the glob is empty")
            }
            rules.append(FilterRule(include: line.hasPrefix("+"), pattern: pattern))
        }
        return rules
    }
}
