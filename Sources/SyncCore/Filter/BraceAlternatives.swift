// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The `{a,b}` alternatives of a glob pattern (as in rclone's filters and the shells): a
/// pattern `*.{jpg,mp4}` stands for `*.jpg` and `*.mp4`, `{DCIM,Pictures}/**` for two
/// folders' content. Alternatives may nest (`{a,b{1,2}}`) and may be empty (`a{,.bak}`).
/// Pure.
///
/// A `{` without its `}`, or a group without a top-level comma (`{a}`), is taken literally, as
/// is any character after `\` and a `{` inside a `[…]` class. The expansion is bounded so a
/// pattern from a filter file cannot grow without end: at most `maximumCount` patterns from
/// one pattern, `maximumGroups` groups and `maximumLength` characters in a pattern holding one
/// (time and memory stay small whatever the pattern).
public enum BraceAlternatives {
    /// Most patterns one pattern may stand for.
    public static let maximumCount = 256
    /// Most `{` one pattern may hold.
    public static let maximumGroups = 64
    /// Most characters of a pattern holding a `{`.
    public static let maximumLength = 4_096

    /// Why a pattern cannot be expanded.
    enum Failure: Error, Sendable, Hashable {
        /// It stands for more than `maximumCount` patterns, or holds more than `maximumGroups`
        /// `{`, or is longer than `maximumLength`.
        case tooMany
    }

    /// The patterns `pattern` stands for, in order; `[pattern]` when it has no alternatives.
    /// - Throws: `Failure.tooMany` past the bounds.
    static func expand(_ pattern: String) throws(Failure) -> [String] {
        guard pattern.contains("{") else { return [pattern] }
        let characters = Array(pattern)
        guard characters.count <= maximumLength, characters.lazy.filter({ $0 == "{" }).count <= maximumGroups else {
            throw .tooMany
        }
        var results: [String] = []
        try expand(characters[...], prefix: "", into: &results)
        return results
    }

    /// Expands the first group of `rest` (behind `prefix`) and then what follows it.
    private static func expand(_ rest: ArraySlice<Character>, prefix: String, into results: inout [String])
        throws(Failure)
    {
        guard let group = firstGroup(in: rest) else {
            results.append(prefix + String(rest))
            if results.count > maximumCount { throw .tooMany }
            return
        }
        let head = prefix + String(rest[rest.startIndex..<group.open])
        let tail = rest[(group.close + 1)...]
        for alternative in group.alternatives {
            // An alternative may hold groups of its own: it is expanded with what follows it.
            try expand(ArraySlice(Array(alternative) + tail), prefix: head, into: &results)
        }
    }

    /// The first `{…}` of `text` holding a top-level comma: where it opens and closes, and its
    /// alternatives (each still unexpanded).
    private static func firstGroup(in text: ArraySlice<Character>)
        -> (open: Int, close: Int, alternatives: [ArraySlice<Character>])?
    {
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "\\" {
                index += 2
                continue
            }
            if character == "[", let close = classEnd(openingAt: index, in: text) {
                index = close + 1  // a `{` in a class is one of its characters
                continue
            }
            if character == "{", let group = group(openingAt: index, in: text) { return group }
            index += 1
        }
        return nil
    }

    /// Where the `[…]` class opening at `open` closes (as `Glob` reads it: `!` or `^` first, a
    /// `]` right after them is a character, `\x` is `x`), nil when it does not (a plain `[`).
    private static func classEnd(openingAt open: Int, in text: ArraySlice<Character>) -> Int? {
        var index = open + 1
        if index < text.endIndex, text[index] == "!" || text[index] == "^" { index += 1 }
        if index < text.endIndex, text[index] == "]" { index += 1 }
        while index < text.endIndex {
            if text[index] == "]" { return index }
            index += text[index] == "\\" ? 2 : 1
        }
        return nil
    }

    /// The group opening at `open`, when it closes and has a top-level comma.
    private static func group(openingAt open: Int, in text: ArraySlice<Character>)
        -> (open: Int, close: Int, alternatives: [ArraySlice<Character>])?
    {
        var depth = 0
        var start = open + 1
        var alternatives: [ArraySlice<Character>] = []
        var index = open + 1
        while index < text.endIndex {
            switch text[index] {
            case "\\":
                index += 1
            case "{":
                depth += 1
            case "}" where depth > 0:
                depth -= 1
            case "}":
                guard !alternatives.isEmpty else { return nil }
                alternatives.append(text[start..<index])
                return (open, index, alternatives)
            case "," where depth == 0:
                alternatives.append(text[start..<index])
                start = index + 1
            default:
                break
            }
            index += 1
        }
        return nil
    }
}
