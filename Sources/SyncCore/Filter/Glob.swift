// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// One glob pattern split at `/`, matched against `/`-separated relative paths (pure).
///
/// Within a segment: `*` any run of characters, `?` one character, `[abc]`, `[a-z]`, `[!a-z]`
/// (or `[^a-z]`) a class, `\x` the character `x`. A segment that is exactly `**` matches any
/// number of path components, none included; a `**` at the end matches at least one (so
/// `DCIM/**` matches what is below `DCIM`, not `DCIM` itself). Characters compare as Swift
/// `Character`s: a name spelled in NFD matches a pattern written in NFC.
struct Glob: Sendable, Hashable {
    enum Segment: Sendable, Hashable {
        /// `**`: any number of components.
        case anyDepth
        /// One component matching this pattern.
        case name([Character])
    }

    let segments: [Segment]

    /// The glob of `text` (no leading or trailing `/`; `unanchored` puts a `**` in front).
    init(_ text: Substring, unanchored: Bool) {
        var segments: [Segment] = unanchored ? [.anyDepth] : []
        for part in text.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "**" {
                if segments.last != .anyDepth { segments.append(.anyDepth) }
            } else {
                segments.append(.name(Array(part)))
            }
        }
        if segments.last == .anyDepth {
            // A trailing `**` needs one component at least.
            segments.insert(.name(["*"]), at: segments.count - 1)
        }
        self.segments = segments
    }

    private init(segments: [Segment]) { self.segments = segments }

    /// The glob without its trailing `*/**` (what a pattern `X/**` says of the folder `X`), or
    /// nil when it does not end so.
    var withoutTrailingDepth: Glob? {
        guard segments.count >= 2, segments.last == .anyDepth, segments[segments.count - 2] == .name(["*"]) else {
            return nil
        }
        return Glob(segments: Array(segments.dropLast(2)))
    }

    /// The pattern positions reachable after matching all of `components` (position
    /// `segments.count`: the pattern is used up). Dynamic programming over (segment,
    /// component): time bounded by their product, whatever the pattern.
    private func reachable(after components: [[Character]]) -> [Bool] {
        var current = [Bool](repeating: false, count: segments.count + 1)
        current[0] = true
        close(&current)
        for component in components {
            var next = [Bool](repeating: false, count: segments.count + 1)
            for index in segments.indices where current[index] {
                switch segments[index] {
                case .anyDepth: next[index] = true
                case .name(let pattern): if Glob.matches(pattern, component) { next[index + 1] = true }
                }
            }
            close(&next)
            current = next
            if !current.contains(true) { break }
        }
        return current
    }

    /// Adds the positions after each reachable `**` (it may match nothing).
    private func close(_ positions: inout [Bool]) {
        for index in segments.indices where positions[index] && segments[index] == .anyDepth {
            positions[index + 1] = true
        }
    }

    /// True when the whole path `components` matches.
    func matches(_ components: [[Character]]) -> Bool {
        reachable(after: components)[segments.count]
    }

    /// True when some path below `components` (one component or more further) could match.
    func couldMatchBelow(_ components: [[Character]]) -> Bool {
        reachable(after: components).dropLast().contains(true)
    }

    /// True when one component `name` matches the segment pattern `pattern`.
    static func matches(_ pattern: [Character], _ name: [Character]) -> Bool {
        var p = 0
        var n = 0
        // Where the last `*` was, and the name position it was tried at: backtracking to it
        // alone is enough for one segment (linear per star).
        var star: (pattern: Int, name: Int)?
        while n < name.count {
            if p < pattern.count {
                switch pattern[p] {
                case "*":
                    star = (p, n)
                    p += 1
                    continue
                case "?":
                    p += 1
                    n += 1
                    continue
                case "[":
                    if let (matched, end) = matchClass(pattern, from: p, name[n]) {
                        if matched {
                            p = end
                            n += 1
                            continue
                        }
                    } else if name[n] == "[" {
                        p += 1
                        n += 1
                        continue
                    }
                case "\\" where p + 1 < pattern.count:
                    if pattern[p + 1] == name[n] {
                        p += 2
                        n += 1
                        continue
                    }
                default:
                    if pattern[p] == name[n] {
                        p += 1
                        n += 1
                        continue
                    }
                }
            }
            guard let last = star else { return false }
            p = last.pattern + 1
            n = last.name + 1
            star = (last.pattern, last.name + 1)
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    /// Matches `character` against the class starting at `pattern[start]` (`[`); nil when the
    /// class is not closed (then `[` is a plain character), else whether it matched and the
    /// position after the class.
    private static func matchClass(_ pattern: [Character], from start: Int, _ character: Character)
        -> (Bool, Int)?
    {
        var index = start + 1
        var negated = false
        if index < pattern.count, pattern[index] == "!" || pattern[index] == "^" {
            negated = true
            index += 1
        }
        var matched = false
        var first = true
        while index < pattern.count {
            var low = pattern[index]
            if low == "]" && !first { return (matched != negated, index + 1) }
            first = false
            if low == "\\", index + 1 < pattern.count {
                index += 1
                low = pattern[index]
            }
            if index + 2 < pattern.count, pattern[index + 1] == "-", pattern[index + 2] != "]" {
                let high = pattern[index + 2]
                if low <= character && character <= high { matched = true }
                index += 3
            } else {
                if low == character { matched = true }
                index += 1
            }
        }
        return nil
    }
}
