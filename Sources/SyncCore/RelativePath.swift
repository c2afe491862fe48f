// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// A path inside a device's root: `/`-separated components, never empty, never `.` or `..`,
/// never containing NUL, never starting with `/`. The root itself is the empty path.
///
/// Every name that comes from a server passes through `RelativePath(validating:)` or
/// `appending(validating:)` before it can name a local file.
///
/// Stored as one string, so hashing and equality look at one buffer; two paths are equal when
/// their components are canonically equivalent (Swift `String` equality), and they sort
/// component by component (see `<`).
public struct RelativePath: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The `/`-separated form, without a leading `/` ("" for the root).
    public let string: String

    /// The device root.
    public static let root = RelativePath(trusted: "")

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

    /// A path already known to be valid (made from a valid path's bytes).
    init(trusted string: String) {
        self.string = string
    }

    /// Parses a `/`-separated relative path, validating each component. Every `/` byte separates
    /// two components (also one followed by a combining mark).
    /// - Throws: `Invalid` when the path is absolute or a component is empty, `.`, `..` or holds NUL.
    public init(validating path: String) throws {
        let utf8 = path.utf8
        if utf8.isEmpty {
            self = .root
            return
        }
        if utf8.first == PathBytes.slash { throw Invalid.absolute(path) }
        var start = utf8.startIndex
        var index = start
        while true {
            let atEnd = index == utf8.endIndex
            if atEnd || utf8[index] == PathBytes.slash {
                try RelativePath.check(utf8[start..<index])
                if atEnd { break }
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        string = path
    }

    /// Checks one component given as UTF-8 bytes without `/`.
    private static func check(_ bytes: Substring.UTF8View) throws {
        switch bytes.count {
        case 0: throw Invalid.empty
        case 1 where bytes.first == PathBytes.dot: throw Invalid.dotOrDotDot(".")
        case 2 where bytes.first == PathBytes.dot && bytes.last == PathBytes.dot: throw Invalid.dotOrDotDot("..")
        default: break
        }
        if bytes.contains(0) { throw Invalid.containsNUL(String(Substring(bytes))) }
    }

    /// Checks that `name` can be one component of a path.
    /// - Throws: `Invalid` for an empty name, `.`, `..`, or a name with a `/` or NUL byte.
    public static func validated(name: String) throws -> String {
        if name.isEmpty { throw Invalid.empty }
        if name == "." || name == ".." { throw Invalid.dotOrDotDot(name) }
        if name.utf8.contains(PathBytes.slash) { throw Invalid.containsSlash(name) }
        if name.utf8.contains(0) { throw Invalid.containsNUL(name) }
        return name
    }

    /// This path with one more component.
    /// - Throws: `Invalid` when `name` is not a valid component.
    public func appending(validating name: String) throws -> RelativePath {
        let name = try RelativePath.validated(name: name)
        return RelativePath(trusted: isRoot ? name : string + "/" + name)
    }

    /// The index of the last `/`, nil for a path of one component (or the root).
    private var lastSlash: String.Index? { string.utf8.lastIndex(of: PathBytes.slash) }

    /// The folder holding this path (the root's parent is the root).
    public var parent: RelativePath {
        guard let slash = lastSlash else { return .root }
        return RelativePath(trusted: String(string[..<slash]))
    }

    /// The last component, or "" for the root.
    public var name: String {
        guard let slash = lastSlash else { return string }
        return String(string[string.utf8.index(after: slash)...])
    }

    /// True for the device root.
    public var isRoot: Bool { string.isEmpty }

    /// The components, each a single validated name (empty for the root). Built on each call.
    public var components: [String] {
        isRoot ? [] : string.utf8.split(separator: PathBytes.slash).map { String(Substring($0)) }
    }

    /// Number of components: 0 for the root, 1 for a name in the root.
    public var depth: Int {
        isRoot ? 0 : string.utf8.reduce(1) { $0 + ($1 == PathBytes.slash ? 1 : 0) }
    }

    /// True when `other` lies strictly below this path (the root is the ancestor of every other path).
    public func isAncestor(of other: RelativePath) -> Bool {
        if isRoot { return !other.isRoot }
        let mine = string.utf8
        let theirs = other.string.utf8
        if theirs.count > mine.count, theirs.starts(with: mine),
            theirs[theirs.index(theirs.startIndex, offsetBy: mine.count)] == PathBytes.slash
        {
            return true
        }
        // Equal bytes settle it; only canonically equivalent spellings need the slow check.
        guard !(string.isPlainASCII && other.string.isPlainASCII) else { return false }
        let a = components
        let b = other.components
        return b.count > a.count && Array(b.prefix(a.count)) == a
    }

    public var description: String { string }

    /// Orders paths component by component, comparing names by their Unicode scalars,
    /// so a folder sorts right before its contents ("a" < "a/b" < "a b" < "a-b" < "a.b" < "ab").
    ///
    /// Decided on the UTF-8 bytes (whose order is the scalars' order) where the first differing
    /// byte is ASCII on both sides, `/` and the end of the path sorting first; otherwise (names
    /// that differ in non-ASCII text, which may still be canonically equivalent) component by
    /// component as `String`s.
    public static func < (lhs: RelativePath, rhs: RelativePath) -> Bool {
        let fast = lhs.string.utf8.withContiguousStorageIfAvailable { a in
            rhs.string.utf8.withContiguousStorageIfAvailable { b in PathBytes.order(a, b) } ?? nil
        }
        if let decided = fast ?? nil { return decided }
        return componentwiseLess(lhs.components, rhs.components)
    }

    /// The order of `<`, on components: the first pair of names that are not equal decides by
    /// their Unicode scalars; when one path's components all match, the shorter path comes first.
    static func componentwiseLess(_ lhs: [String], _ rhs: [String]) -> Bool {
        for (a, b) in zip(lhs, rhs) where a != b {
            return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
        }
        return lhs.count < rhs.count
    }
}

/// Byte-level helpers of `RelativePath`.
enum PathBytes {
    static let slash = UInt8(ascii: "/")
    static let dot = UInt8(ascii: ".")

    /// `a < b` for the UTF-8 of two valid paths, or nil when the first differing byte is not
    /// ASCII on both sides (the caller then compares components as strings).
    @inline(__always)
    static func order(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool? {
        let n = Swift.min(a.count, b.count)
        var i = 0
        while i < n && a[i] == b[i] { i += 1 }
        // Ranks: end of path 0, `/` 1, other ASCII bytes above; nil for a non-ASCII byte.
        let x = i < a.count ? rank(a[i]) : 0
        let y = i < b.count ? rank(b[i]) : 0
        guard let x, let y else { return nil }
        return x < y
    }

    @inline(__always)
    private static func rank(_ byte: UInt8) -> Int? {
        byte >= 0x80 ? nil : byte == slash ? 1 : Int(byte) + 2
    }
}

extension RelativePath {
    /// True when the path is in Unicode NFC (every ASCII path is): then paths equal to it have
    /// the same bytes.
    var isNFC: Bool {
        string.isPlainASCII || string.precomposedStringWithCanonicalMapping.utf8.elementsEqual(string.utf8)
    }

    /// True when both paths have the same bytes up to their last `/` (then their parents are
    /// equal; different bytes may still name one folder in another spelling).
    func hasSameParentBytes(as other: RelativePath) -> Bool {
        let same = string.utf8.withContiguousStorageIfAvailable { a in
            other.string.utf8.withContiguousStorageIfAvailable { b in
                let x = a.lastIndex(of: PathBytes.slash) ?? 0
                let y = b.lastIndex(of: PathBytes.slash) ?? 0
                return x == y && a[..<x].elementsEqual(b[..<y])
            }
        }
        if let same = same ?? nil { return same }
        let a = string.utf8
        let b = other.string.utf8
        let x = a.lastIndex(of: PathBytes.slash).map { a.distance(from: a.startIndex, to: $0) } ?? 0
        let y = b.lastIndex(of: PathBytes.slash).map { b.distance(from: b.startIndex, to: $0) } ?? 0
        return x == y && a.prefix(x).elementsEqual(b.prefix(y))
    }

    /// The same path spelled in NFC (itself when it already is).
    var canonical: RelativePath {
        isNFC ? self : RelativePath(trusted: string.precomposedStringWithCanonicalMapping)
    }
}

extension String {
    /// True when every UTF-8 byte is ASCII.
    var isPlainASCII: Bool { utf8.allSatisfy { $0 < 0x80 } }
}
