// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The glob rules that decide which paths of a device a run sees (`--include`, `--exclude`,
/// `--filter-from` and their keys), matched against paths relative to the device root. Pure.
///
/// Patterns:
/// - A pattern without `/` matches a name at any depth: `*.tmp` matches `a.tmp` and `x/y/b.tmp`.
/// - A pattern with `/` inside matches the whole relative path, anchored at the root; `*` and
///   `?` do not cross `/`: `DCIM/*.jpg` matches `DCIM/a.jpg`, not `DCIM/x/a.jpg`. A leading
///   `/` only anchors.
/// - A segment `**` crosses folders: `**/*.jpg`, `DCIM/**` (everything below `DCIM`),
///   `a/**/b` (also `a/b`).
/// - A trailing `/` makes the pattern a folder's: `.thumbnails/` matches every folder named
///   `.thumbnails` and everything below it, not a file of that name (`X/` is `X/**` that also
///   names the folder `X`).
/// - `{a,b}` alternatives (`*.{jpg,mp4}`, `{DCIM,Pictures}/**`), nested or empty, stand for
///   one pattern each (`BraceAlternatives`). A leading `./` anchors like a leading `/`.
///
/// Deciding: the rules are tried in order and the first that matches decides (`+` keeps, `-`
/// leaves out). A file no rule matches is kept, unless some rule is a `+` rule: then it is
/// left out. A folder no rule matches is kept (walked into), so `+ **/*.jpg` finds the
/// pictures at any depth; a folder is matched by a `-` rule that matches it or everything below
/// it (`- cache`, `- cache/`, `- cache/**`: the folder is not walked into), and by a `+` rule
/// that matches it or could match something below it.
public struct FilterRules: Sendable, Hashable {
    private struct Compiled: Sendable, Hashable {
        var include: Bool
        /// The position of the rule in `rules` (a rule with alternatives compiles to several).
        var rule: Int
        var glob: Glob
        /// For a folder: the glob that names the folder whose content the rule covers in whole
        /// (`X` of `X/**` and of `X/`).
        var wholeFolder: Glob?
    }

    private let compiled: [Compiled]
    private let hasIncludes: Bool

    /// The rules as given, in order.
    public let rules: [FilterRule]

    /// Why a pattern was refused.
    public struct InvalidPattern: Error, Sendable, Hashable, CustomStringConvertible {
        /// The pattern as given.
        public var pattern: String
        /// True when its `{a,b}` alternatives stand for too many patterns; false: it is empty.
        public var tooManyAlternatives = false
        /// The refusal as one line of text.
        public var description: String {
            tooManyAlternatives
                ? "filter pattern '\(pattern.prefix(80))' has too many {a,b} alternatives (at most"
                    + " \(BraceAlternatives.maximumCount) patterns from one, \(BraceAlternatives.maximumGroups) groups,"
                    + " \(FilterRules.maximumAddedByAlternatives) added by all rules together); split it"
                : "filter pattern '\(pattern)' is empty"
        }
    }

    /// Compiles the rules (see `FilterRule.combining` for the order of the options and keys).
    /// - Throws: `InvalidPattern` for a pattern that is empty (or only slashes and `./`), or
    ///   whose alternatives stand for more than `BraceAlternatives.maximumCount` patterns.
    public init(_ rules: [FilterRule]) throws(InvalidPattern) {
        var compiled: [Compiled] = []
        for (position, rule) in rules.enumerated() {
            let alternatives: [String]
            do {
                alternatives = try BraceAlternatives.expand(rule.pattern)
            } catch {
                throw InvalidPattern(pattern: rule.pattern, tooManyAlternatives: true)
            }
            // Every pattern is tried against every path: the alternatives of all rules together
            // are bounded too.
            if compiled.count + alternatives.count > rules.count + Self.maximumAddedByAlternatives {
                throw InvalidPattern(pattern: rule.pattern, tooManyAlternatives: true)
            }
            for alternative in alternatives {
                guard let one = Self.compile(alternative, include: rule.include, rule: position) else {
                    throw InvalidPattern(pattern: rule.pattern)
                }
                compiled.append(one)
            }
        }
        self.compiled = compiled
        self.rules = rules
        hasIncludes = rules.contains(where: \.include)
    }

    /// One pattern without alternatives compiled, or nil when it is empty.
    private static func compile(_ pattern: String, include: Bool, rule: Int) -> Compiled? {
        var text = Substring(pattern)
        var folderPattern = false
        while text.hasSuffix("/") {
            text = text.dropLast()
            folderPattern = true
        }
        var anchored = false
        while text.hasPrefix("/") || text.hasPrefix("./") || text == "." {
            text = text.hasPrefix("/") ? text.dropFirst() : text.dropFirst(min(2, text.count))
            anchored = true
        }
        if text.isEmpty { return nil }
        if text.contains("/") { anchored = true }
        let named = Glob(text, unanchored: !anchored)
        let glob = folderPattern ? Glob(text + "/**", unanchored: !anchored) : named
        return Compiled(
            include: include, rule: rule, glob: glob, wholeFolder: folderPattern ? named : glob.withoutTrailingDepth)
    }

    /// Most patterns the `{a,b}` alternatives of all rules together may add.
    public static let maximumAddedByAlternatives = 4_096

    /// Only `-` rules for these patterns (the `exclude` key alone).
    /// - Throws: `InvalidPattern` for an empty pattern.
    public init(excluding patterns: [String]) throws(InvalidPattern) {
        try self.init(patterns.map { FilterRule(include: false, pattern: $0) })
    }

    /// No rules: everything is kept.
    public static let none = FilterRules(compiled: [], rules: [])

    private init(compiled: [Compiled], rules: [FilterRule]) {
        self.compiled = compiled
        self.rules = rules
        hasIncludes = false
    }

    /// True when nothing is left out.
    public var isEmpty: Bool { compiled.isEmpty }

    /// True when the entry at `path` (relative to the device root, `/`-separated) is left out.
    /// - Parameters:
    ///   - path: the relative path, e.g. `DCIM/100/a.tmp`.
    ///   - isFolder: whether the entry is a folder (a left-out folder is not walked into).
    public func excludes(path: String, isFolder: Bool) -> Bool {
        guard !compiled.isEmpty else { return false }
        return decision(path: path, isFolder: isFolder).excluded
    }

    /// What the rules decide of the entry at `path`: whether it is left out, and the rule that
    /// decided (nil: no rule matched; then a file is left out when some rule is a `+` rule).
    public func decision(path: String, isFolder: Bool) -> (excluded: Bool, rule: FilterRule?) {
        let components = path.split(separator: "/").map { Array($0) }
        for rule in compiled {
            let matched: Bool
            if !isFolder {
                matched = rule.glob.matches(components)
            } else if rule.include {
                matched = rule.glob.matches(components) || rule.glob.couldMatchBelow(components)
            } else {
                matched = rule.glob.matches(components) || rule.wholeFolder?.matches(components) == true
            }
            if matched { return (!rule.include, rules[rule.rule]) }
        }
        return (!isFolder && hasIncludes, nil)
    }
}
