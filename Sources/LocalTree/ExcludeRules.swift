import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Glob patterns that keep paths out of a scan (the `exclude` list of a device), matched with
/// `fnmatch(3)` against paths relative to the device root.
///
/// - A pattern without `/` matches a name at any depth: `*.tmp` excludes `a.tmp` and `x/y/b.tmp`.
/// - A pattern with `/` inside matches the whole relative path, anchored at the root, and `*`
///   does not cross `/` (`FNM_PATHNAME`): `DCIM/*.jpg` excludes `DCIM/a.jpg`, not `DCIM/x/a.jpg`.
///   A leading `/` only anchors and is dropped.
/// - A trailing `/` restricts the pattern to folders: `.thumbnails/` excludes every folder named
///   `.thumbnails` (and so everything under it), but not a file of that name.
///
/// An excluded folder is not descended into.
public struct ExcludeRules: Sendable, Hashable {
    private struct Rule: Sendable, Hashable {
        var pattern: String
        var anchored: Bool
        var foldersOnly: Bool
    }

    private let rules: [Rule]

    /// The patterns as given.
    public let patterns: [String]

    /// Why a pattern was refused.
    public struct InvalidPattern: Error, Sendable, Hashable, CustomStringConvertible {
        /// The pattern as given.
        public var pattern: String
        /// The refusal as one line of text.
        public var description: String { "exclude pattern '\(pattern)' is empty" }
    }

    /// Parses the patterns.
    /// - Throws: `InvalidPattern` for a pattern that is empty (or only slashes).
    public init(_ patterns: [String]) throws(InvalidPattern) {
        var rules: [Rule] = []
        for original in patterns {
            var text = Substring(original)
            var foldersOnly = false
            while text.hasSuffix("/") {
                text = text.dropLast()
                foldersOnly = true
            }
            var anchored = false
            while text.hasPrefix("/") {
                text = text.dropFirst()
                anchored = true
            }
            if text.isEmpty { throw InvalidPattern(pattern: original) }
            if text.contains("/") { anchored = true }
            rules.append(Rule(pattern: String(text), anchored: anchored, foldersOnly: foldersOnly))
        }
        self.rules = rules
        self.patterns = patterns
    }

    /// No patterns: nothing is excluded.
    public static let none = ExcludeRules(rules: [], patterns: [])

    private init(rules: [Rule], patterns: [String]) {
        self.rules = rules
        self.patterns = patterns
    }

    /// True when nothing is excluded.
    public var isEmpty: Bool { rules.isEmpty }

    /// True when the entry at `path` (relative to the device root, `/`-separated) is excluded.
    /// - Parameters:
    ///   - path: the relative path, e.g. `DCIM/100/a.tmp`.
    ///   - name: its last component.
    ///   - isFolder: whether the entry is a folder (for patterns with a trailing `/`).
    public func excludes(path: String, name: String, isFolder: Bool) -> Bool {
        for rule in rules where isFolder || !rule.foldersOnly {
            let matched: Bool
            if rule.anchored {
                matched = fnmatch(rule.pattern, path, FNM_PATHNAME) == 0
            } else {
                matched = fnmatch(rule.pattern, name, 0) == 0
            }
            if matched { return true }
        }
        return false
    }
}
