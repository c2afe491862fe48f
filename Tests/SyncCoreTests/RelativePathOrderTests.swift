// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncCore

/// The order, equality and parts of `RelativePath`, checked against the component-by-component
/// definition (the order paths had when they were stored as an array of names).
@Suite struct RelativePathOrderTests {
    /// Names that sort differently as whole strings than component by component, plus
    /// non-ASCII names, canonically equivalent spellings (NFC "é" and NFD "e" + U+0301) and
    /// characters around `/` (0x2F) in byte order: space, `!`, `-`, `.`, `0`, `A`, `~`, DEL.
    static let tricky = [
        "a", "a/b", "a/b/c", "a-b", "a b", "a.b", "ab", "a!", "a0", "aA", "a~", "a\u{7F}", "a/a", "a/b c", "a/b-c",
        "a/b/c d", "b", "B", "a\u{E9}", "ae\u{301}", "a\u{E9}/x", "ae\u{301}/y", "ae\u{301}/a", "a\u{E9}/a\u{301}",
        "a\u{E9}/\u{E1}", "a\u{E9}/b",
        "\u{E9}", "e\u{301}", "\u{E9}/z", "e", "\u{1F600}", "\u{1F600}/a", "\u{301}", "a/\u{301}", "a/\u{E9}",
        "\u{65E5}\u{672C}", "\u{65E5}/\u{672C}", "z", "Z/z", "a/b/\u{E9}", "a/b/e\u{301}x",
    ]

    /// The reference order: the first pair of components that are not equal (canonically) decides
    /// by Unicode scalars, then fewer components first. Components are split at `/` bytes (a
    /// Character split would keep "/" + U+0301 inside one name).
    static func referenceLess(_ a: String, _ b: String) -> Bool {
        let x = a.utf8.split(separator: UInt8(ascii: "/")).map { String(Substring($0)) }
        let y = b.utf8.split(separator: UInt8(ascii: "/")).map { String(Substring($0)) }
        for (p, q) in zip(x, y) where p != q {
            return p.unicodeScalars.lexicographicallyPrecedes(q.unicodeScalars)
        }
        return x.count < y.count
    }

    static func path(_ s: String) throws -> RelativePath { try RelativePath(validating: s) }

    @Test(arguments: tricky)
    func orderMatchesTheComponentwiseDefinition(_ a: String) throws {
        for b in Self.tricky {
            let got = try Self.path(a) < Self.path(b)
            #expect(got == Self.referenceLess(a, b), "\(a.debugDescription) < \(b.debugDescription)")
        }
    }

    /// Sorted lists written out by hand: a folder comes right before its contents.
    static let sortedCases: [[String]] = [
        ["a", "a/b", "a/b/c", "a b", "a!", "a-b", "a.b", "a0", "aA", "ab", "a~", "a\u{7F}"],
        ["B", "a", "a/z", "a b", "a.txt"],
        ["folder-1", "folder-1/file-9.jpg", "folder-10", "folder-10/file-0.jpg", "folder-1a"],
        ["e", "e/x", "e\u{301}", "\u{E9}", "\u{E9}/z", "\u{65E5}", "\u{65E5}/\u{672C}", "\u{1F600}"],
    ]

    @Test(arguments: sortedCases)
    func sortingGivesTheWrittenOrder(_ expected: [String]) throws {
        for shuffled in [expected.reversed(), expected.shuffled(), expected] {
            let sorted = try shuffled.map(Self.path).sorted()
            #expect(sorted.map(\.string) == expected)
        }
    }

    @Test(arguments: [
        ("caf\u{E9}", "cafe\u{301}", true), ("a/caf\u{E9}", "a/cafe\u{301}", true), ("a/b", "a/b", true),
        ("a/b", "a-b", false), ("\u{E9}/x", "e\u{301}/x", true), ("e", "e\u{301}", false),
    ])
    func equalityIsCanonicalEquivalence(_ a: String, _ b: String, equal: Bool) throws {
        let (x, y) = (try Self.path(a), try Self.path(b))
        #expect((x == y) == equal)
        #expect(!(x < y && y < x))
        if equal {
            #expect(!(x < y) && !(y < x))
            #expect(x.hashValue == y.hashValue)
            #expect(Set([x, y]).count == 1)
        }
    }

    @Test(arguments: [
        ("", "", "", 0, [String]()), ("a", "", "a", 1, ["a"]), ("a/b", "a", "b", 2, ["a", "b"]),
        ("x/\u{E9}/y z", "x/\u{E9}", "y z", 3, ["x", "\u{E9}", "y z"]),
    ])
    func partsOfAPath(_ text: String, parent: String, name: String, depth: Int, components: [String]) throws {
        let p = try Self.path(text)
        #expect(p.parent.string == parent)
        #expect(p.name == name)
        #expect(p.depth == depth)
        #expect(p.components == components)
        #expect(p.isRoot == text.isEmpty)
    }

    @Test(arguments: [
        ("", "a", true), ("", "", false), ("a", "a/b", true), ("a", "a", false), ("a", "ab", false),
        ("a", "a-b/c", false), ("a/b", "a/b/c/d", true), ("caf\u{E9}", "cafe\u{301}/x", true),
        ("cafe\u{301}", "caf\u{E9}/x/y", true), ("caf\u{E9}", "caf\u{E9}x/y", false),
    ])
    func ancestry(_ a: String, _ b: String, ancestor: Bool) throws {
        #expect(try Self.path(a).isAncestor(of: Self.path(b)) == ancestor)
    }

    @Test func appendingBuildsTheSamePathAsParsing() throws {
        #expect(try RelativePath.root.appending(validating: "a").string == "a")
        #expect(try Self.path("a/b").appending(validating: "c d") == Self.path("a/b/c d"))
        #expect(throws: RelativePath.Invalid.self) { try Self.path("a").appending(validating: "x/y") }
    }

    /// A `/` byte followed by a combining mark is one Character in Swift, but still a separator:
    /// such names and paths must not smuggle a `/` or a `..` component through.
    @Test(arguments: ["../\u{301}x", "a/../\u{301}", "/\u{301}a", "a//\u{301}"])
    func slashBeforeACombiningMarkStillSeparates(_ text: String) {
        #expect(throws: RelativePath.Invalid.self) { try RelativePath(validating: text) }
    }

    @Test(arguments: ["a/\u{301}", "/\u{301}", "x/\u{301}.."])
    func namesWithASlashByteAreRefused(_ name: String) {
        #expect(throws: RelativePath.Invalid.containsSlash(name)) { try RelativePath.validated(name: name) }
    }

    @Test func aValidPathWithACombiningMarkAfterTheSlashKeepsItsComponents() throws {
        let p = try Self.path("a/\u{301}b")
        #expect(p.components == ["a", "\u{301}b"])
        #expect(p.parent.string == "a")
    }
}
