import Foundation

/// A path inside a device's root: `/`-separated components, never empty, never `.` or `..`,
/// never containing NUL, never starting with `/`. The root itself is the empty path.
///
/// Every name that comes from a server passes through `RelativePath(validating:)` or
/// `appending(validating:)` before it can name a local file.
public struct RelativePath: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The components, each a single validated name.
    public let components: [String]

    /// The device root.
    public static let root = RelativePath(trusted: [])

    /// Why a name or path was refused.
    public enum Invalid: Error, Equatable, CustomStringConvertible {
        case empty
        case dotOrDotDot(String)
        case containsSlash(String)
        case containsNUL(String)
        case absolute(String)

        public var description: String {
            switch self {
            case .empty: return "empty name"
            case .dotOrDotDot(let n): return "name '\(n)' is '.' or '..'"
            case .containsSlash(let n): return "name '\(n)' contains '/'"
            case .containsNUL(let n): return "name '\(n.replacingOccurrences(of: "\0", with: "\\0"))' contains NUL"
            case .absolute(let p): return "path '\(p)' is absolute"
            }
        }
    }

    private init(trusted components: [String]) {
        self.components = components
    }

    /// Parses a `/`-separated relative path, validating each component.
    /// - Throws: `Invalid` when the path is absolute or a component is empty, `.`, `..` or holds NUL.
    public init(validating path: String) throws {
        if path.isEmpty {
            self = .root
            return
        }
        if path.hasPrefix("/") { throw Invalid.absolute(path) }
        var parts: [String] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: false) {
            parts.append(try RelativePath.validated(name: String(part)))
        }
        components = parts
    }

    /// Checks that `name` can be one component of a path.
    /// - Throws: `Invalid` for an empty name, `.`, `..`, or a name with `/` or NUL.
    public static func validated(name: String) throws -> String {
        if name.isEmpty { throw Invalid.empty }
        if name == "." || name == ".." { throw Invalid.dotOrDotDot(name) }
        if name.contains("/") { throw Invalid.containsSlash(name) }
        if name.unicodeScalars.contains("\0") { throw Invalid.containsNUL(name) }
        return name
    }

    /// This path with one more component.
    /// - Throws: `Invalid` when `name` is not a valid component.
    public func appending(validating name: String) throws -> RelativePath {
        RelativePath(trusted: components + [try RelativePath.validated(name: name)])
    }

    /// The folder holding this path (the root's parent is the root).
    public var parent: RelativePath { RelativePath(trusted: Array(components.dropLast())) }

    /// The last component, or "" for the root.
    public var name: String { components.last ?? "" }

    /// True for the device root.
    public var isRoot: Bool { components.isEmpty }

    /// True when `other` lies strictly below this path (the root is the ancestor of every other path).
    public func isAncestor(of other: RelativePath) -> Bool {
        other.components.count > components.count && Array(other.components.prefix(components.count)) == components
    }

    /// The `/`-separated form, without a leading `/` ("" for the root).
    public var string: String { components.joined(separator: "/") }

    public var description: String { string }

    /// Orders paths component by component, comparing names by their Unicode scalars,
    /// so a folder sorts right before its contents.
    public static func < (lhs: RelativePath, rhs: RelativePath) -> Bool {
        for (a, b) in zip(lhs.components, rhs.components) where a != b {
            return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
        }
        return lhs.components.count < rhs.components.count
    }
}
