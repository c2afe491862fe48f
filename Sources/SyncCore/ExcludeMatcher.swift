import Foundation

/// Decides which paths a device's `exclude` patterns leave out.
///
/// Patterns are shell globs (`*`, `?`, `[...]`, matched by the C library's `fnmatch`) relative to
/// the device's root:
/// - a pattern without `/` matches a name at any depth (`*.tmp`);
/// - a pattern with `/` matches the whole relative path (`cache/*.bin`, a leading `/` is allowed);
/// - a trailing `/` limits the pattern to folders (`.thumbnails/`).
///
/// A folder that is excluded takes its whole content with it.
public struct ExcludeMatcher: Sendable {
    private struct Rule: Sendable {
        var pattern: String
        var wholePath: Bool
        var foldersOnly: Bool
    }

    private let rules: [Rule]

    /// Reads the patterns of a device's `exclude` list.
    public init(patterns: [String]) {
        rules = patterns.compactMap { raw in
            var pattern = raw
            let foldersOnly = pattern.hasSuffix("/")
            while pattern.hasSuffix("/") { pattern.removeLast() }
            while pattern.hasPrefix("/") { pattern.removeFirst() }
            guard !pattern.isEmpty else { return nil }
            return Rule(pattern: pattern, wholePath: pattern.contains("/"), foldersOnly: foldersOnly)
        }
    }

    /// True when the patterns leave out `path`.
    public func excludes(_ path: RelativePath, isDirectory: Bool) -> Bool {
        guard !rules.isEmpty, !path.isRoot else { return false }
        let whole = path.string
        let name = path.name
        for rule in rules where !rule.foldersOnly || isDirectory {
            let subject = rule.wholePath ? whole : name
            if fnmatch(rule.pattern, subject, rule.wholePath ? FNM_PATHNAME : 0) == 0 { return true }
        }
        return false
    }
}
