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
        /// The refusal as one line of text.
        public var description: String { "filter pattern '\(pattern)' is empty" }
    }

    /// Compiles the rules (see `FilterRule.combining` for the order of the options and keys).
    /// - Throws: `InvalidPattern` for a pattern that is empty (or only slashes).
    public init(_ rules: [FilterRule]) throws(InvalidPattern) {
        var compiled: [Compiled] = []
        for rule in rules {
            var text = Substring(rule.pattern)
            var folderPattern = false
            while text.hasSuffix("/") {
                text = text.dropLast()
                folderPattern = true
            }
            var anchored = false
            while text.hasPrefix("/") {
                text = text.dropFirst()
                anchored = true
            }
            if text.isEmpty { throw InvalidPattern(pattern: rule.pattern) }
            if text.contains("/") { anchored = true }
            let named = Glob(text, unanchored: !anchored)
            let glob = folderPattern ? Glob(text + "/**", unanchored: !anchored) : named
            compiled.append(
                Compiled(
                    include: rule.include, glob: glob,
                    wholeFolder: folderPattern ? named : glob.withoutTrailingDepth))
        }
        self.compiled = compiled
        self.rules = rules
        hasIncludes = rules.contains(where: \.include)
    }

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
        for (index, rule) in compiled.enumerated() {
            let matched: Bool
            if !isFolder {
                matched = rule.glob.matches(components)
            } else if rule.include {
                matched = rule.glob.matches(components) || rule.glob.couldMatchBelow(components)
            } else {
                matched = rule.glob.matches(components) || rule.wholeFolder?.matches(components) == true
            }
            if matched { return (!rule.include, rules[index]) }
        }
        return (!isFolder && hasIncludes, nil)
    }
}
