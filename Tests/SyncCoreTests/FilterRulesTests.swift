// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import SyncCore

/// The glob rules of `--include`, `--exclude`, `--filter-from` on real patterns (rclone's
/// filtering cases where the rules agree: unanchored names, anchors, `**`, first match wins).
struct FilterRulesTests {
    /// One rule and whether it leaves the path out.
    @Test(arguments: [
        ("- *.tmp", "a/b/c.tmp", false, true),
        ("- *.tmp", "c.tmp", false, true),
        ("- *.tmp", "c.tmp.jpg", false, false),
        ("- *.tmp", "x.tmp", true, true),  // a name pattern names folders too
        ("- cache/", "x/cache", true, true),
        ("- cache/", "x/cache", false, false),  // a file named cache: folders only
        ("- cache/", "x/cache/a.bin", false, true),
        ("- DCIM/*.jpg", "DCIM/a.jpg", false, true),
        ("- DCIM/*.jpg", "DCIM/x/a.jpg", false, false),
        ("- DCIM/*.jpg", "other/DCIM/a.jpg", false, false),
        ("- /top.txt", "top.txt", false, true),
        ("- /top.txt", "x/top.txt", false, false),
        ("- IMG_00[0-4]?.JPG", "d/IMG_0031.JPG", false, true),
        ("- IMG_00[0-4]?.JPG", "d/IMG_0051.JPG", false, false),
        ("- IMG_00[!0-4]?.JPG", "d/IMG_0051.JPG", false, true),
        ("- **/*.jpg", "a.jpg", false, true),
        ("- **/*.jpg", "a/b/c/d.jpg", false, true),
        ("- **/*.jpg", "a/b/c/d.png", false, false),
        ("- DCIM/**", "DCIM/a.jpg", false, true),
        ("- DCIM/**", "DCIM/100/a.jpg", false, true),
        ("- DCIM/**", "DCIM", true, true),  // everything below it: the folder is not walked
        ("- DCIM/**", "DCIM", false, false),  // a file named DCIM is not below DCIM
        ("- DCIM/**", "Other/DCIM/a.jpg", false, false),
        ("- a/**/b", "a/b", false, true),
        ("- a/**/b", "a/x/y/b", false, true),
        ("- a/**/b", "a/x/y/c", false, false),
        ("- a/**/b", "x/a/b", false, false),
        ("- 中文/*.jpg", "中文/照片.jpg", false, true),
        ("- 照?.jpg", "d/照片.jpg", false, true),  // ? is one character, not one byte
        ("- \\*.txt", "*.txt", false, true),
        ("- \\*.txt", "a.txt", false, false),
        ("- *", "a/b/c", false, true),
        ("- *", "a", true, true),
        ("- .*", "x/.hidden", false, true),
        ("- [abc", "[abc", false, true),  // an unclosed class is a plain '['
    ])
    func oneRule(rule: String, path: String, isFolder: Bool, excluded: Bool) throws {
        let rules = try FilterRules(FilterRule.parseFile(rule))
        #expect(rules.excludes(path: path, isFolder: isFolder) == excluded)
    }

    /// Several rules: the first match decides; with a `+` rule, what no rule matches is out.
    @Test(arguments: [
        // Only pictures, at any depth: folders are still walked.
        ("+ *.jpg", "a.jpg", false, false),
        ("+ *.jpg", "DCIM/100/a.jpg", false, false),
        ("+ *.jpg", "DCIM/100/a.mov", false, true),
        ("+ *.jpg", "DCIM", true, false),
        ("+ **/*.jpg", "x/y/z", true, false),
        // rclone's classic: one tree, nothing else.
        ("+ DCIM/**\n- *", "DCIM", true, false),
        ("+ DCIM/**\n- *", "DCIM/100/a.jpg", false, false),
        ("+ DCIM/**\n- *", "Other", true, true),
        ("+ DCIM/**\n- *", "top.txt", false, true),
        // First match wins, both ways round.
        ("- DCIM/tmp/**\n+ *.jpg", "DCIM/tmp/a.jpg", false, true),
        ("- DCIM/tmp/**\n+ *.jpg", "DCIM/tmp", true, true),
        ("- DCIM/tmp/**\n+ *.jpg", "DCIM/b.jpg", false, false),
        ("+ *.jpg\n- DCIM/tmp/**", "DCIM/tmp/a.jpg", false, false),
        ("+ *.jpg\n- DCIM/tmp/**", "DCIM/tmp", true, false),
        ("+ *.jpg\n- DCIM/tmp/**", "DCIM/tmp/a.mov", false, true),
        // An anchored include lets through the folders on its way only.
        ("+ /a/b/*.jpg\n- **", "a", true, false),
        ("+ /a/b/*.jpg\n- **", "a/b", true, false),
        ("+ /a/b/*.jpg\n- **", "a/c", true, true),
        ("+ /a/b/*.jpg\n- **", "a/b/x.jpg", false, false),
        // A folder include covers its content.
        ("+ keep/", "keep/x/y.bin", false, false),
        ("+ keep/", "other/y.bin", false, true),
    ])
    func ruleLists(rules text: String, path: String, isFolder: Bool, excluded: Bool) throws {
        let rules = try FilterRules(FilterRule.parseFile(text))
        #expect(rules.excludes(path: path, isFolder: isFolder) == excluded)
    }

    @Test func optionsCombineFilterFileThenExcludesThenIncludes() throws {
        let combined = FilterRule.combining(
            filterFrom: [FilterRule(include: true, pattern: "keep.tmp")], exclude: ["*.tmp"], include: ["*.jpg"])
        #expect(combined.map(\.pattern) == ["keep.tmp", "*.tmp", "*.jpg"])
        #expect(combined.map(\.include) == [true, false, true])
        let rules = try FilterRules(combined)
        #expect(!rules.excludes(path: "keep.tmp", isFolder: false))
        #expect(rules.excludes(path: "x.tmp", isFolder: false))
        #expect(!rules.excludes(path: "a/x.jpg", isFolder: false))
        #expect(rules.excludes(path: "a/x.mov", isFolder: false))
    }

    @Test func noRulesKeepEverything() {
        #expect(FilterRules.none.isEmpty)
        #expect(!FilterRules.none.excludes(path: "a/b", isFolder: false))
    }

    @Test func emptyPatternIsRefused() {
        #expect(throws: FilterRules.InvalidPattern.self) { try FilterRules(excluding: ["ok", "/"]) }
        // Found by a breaker: `./` was taken and matched nothing.
        for empty in ["./", ".", "/./", "././"] {
            #expect(throws: FilterRules.InvalidPattern.self) { try FilterRules(excluding: [empty]) }
        }
    }

    /// `{a,b}` alternatives (rclone, the shells): found by a first user, who wrote
    /// `*.{jpg,mp4}` and had it taken literally without a word.
    @Test(arguments: [
        ("- *.{jpg,mp4}", "DCIM/a.jpg", false, true),
        ("- *.{jpg,mp4}", "DCIM/a.mp4", false, true),
        ("- *.{jpg,mp4}", "DCIM/a.mov", false, false),
        ("- *.{jpg,mp4}", "a.{jpg,mp4}", false, false),
        ("- {DCIM,Pictures}/**", "Pictures/x/a.jpg", false, true),
        ("- {DCIM,Pictures}/**", "Other/a.jpg", false, false),
        ("- log{,.1}", "d/log", false, true),
        ("- log{,.1}", "d/log.1", false, true),
        ("- log{,.1}", "d/log.2", false, false),
        ("- a{b,c{d,e}}f", "acef", false, true),
        ("- a{b,c{d,e}}f", "abf", false, true),
        ("- a{b,c{d,e}}f", "acf", false, false),
        ("- {a}", "{a}", false, true),  // no comma: literal
        ("- {a,b", "{a,b", false, true),  // unclosed: literal
        ("- \\{a,b}", "{a,b}", false, true),  // escaped: literal
        ("- \\{a,b}", "a", false, false),
        ("- ./top.txt", "top.txt", false, true),  // ./ anchors like /
        ("- ./top.txt", "x/top.txt", false, false),
    ])
    func alternatives(rule: String, path: String, isFolder: Bool, excluded: Bool) throws {
        let rules = try FilterRules(FilterRule.parseFile(rule))
        #expect(rules.excludes(path: path, isFolder: isFolder) == excluded)
    }

    /// The rule that decided is the one written, not one of its alternatives.
    @Test func theDecidingRuleIsTheOneWritten() throws {
        let rules = try FilterRules(FilterRule.parseFile("- *.{tmp,part}\n+ *.jpg"))
        #expect(rules.decision(path: "a.part", isFolder: false).rule?.pattern == "*.{tmp,part}")
        #expect(rules.decision(path: "a.jpg", isFolder: false).rule?.pattern == "*.jpg")
    }

    /// A pattern cannot stand for more than 256 patterns (a filter file is untrusted input).
    @Test func alternativesAreBounded() throws {
        let fine = String(repeating: "{a,b}", count: 8)  // 256
        #expect(try BraceAlternatives.expand(fine).count == 256)
        let tooMany = String(repeating: "{a,b}", count: 40)
        #expect(throws: FilterRules.InvalidPattern.self) { try FilterRules(excluding: [tooMany]) }
    }

    /// Found by a breaker: 16,000 groups in one line took 10 GB (a copy of the rest of the
    /// pattern per level) or crashed the stack; 40,000 `{` alone took 75 s. Both are refused
    /// at once now, and a pattern of `{` without `}` within the bounds is quick.
    @Test(arguments: [String(repeating: "{a,b}", count: 16_000), String(repeating: "{", count: 40_000)])
    func hugePatternsAreRefusedAtOnce(pattern: String) {
        let started = Date()
        #expect(throws: FilterRules.InvalidPattern.self) { try FilterRules(excluding: [pattern]) }
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func unclosedBracesWithinTheBoundsAreLiteral() throws {
        let pattern = String(repeating: "{", count: 60)
        #expect(try BraceAlternatives.expand(pattern) == [pattern])
    }

    /// Found by a breaker: 2,000 lines of 256 alternatives each made 512,000 patterns tried
    /// against every path. All rules together may add at most 4,096.
    @Test func theAlternativesOfAllRulesTogetherAreBounded() throws {
        let line = "x{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}"  // 256
        #expect(throws: Never.self) { try FilterRules(excluding: Array(repeating: line, count: 16)) }
        #expect(throws: FilterRules.InvalidPattern.self) {
            try FilterRules(excluding: Array(repeating: line, count: 17))
        }
    }

    /// Found by a breaker: `x[{,}]y` was expanded into `x[]y` and `x[]y`; a `{` in a class is
    /// one of its characters.
    @Test func aBraceInAClassIsACharacter() throws {
        let rules = try FilterRules(excluding: ["x[{,}]y"])
        for name in ["x{y", "x,y", "x}y"] { #expect(rules.excludes(path: name, isFolder: false), "\(name)") }
        #expect(!rules.excludes(path: "x[]y", isFolder: false))
    }

    @Test func manyDoubleStarsStayBounded() throws {
        // A deep path against a pattern of many `**`: the table is segments x components.
        let rules = try FilterRules(excluding: [Array(repeating: "**/x", count: 50).joined(separator: "/") + "/y"])
        let deep = Array(repeating: "x", count: 2_000).joined(separator: "/")
        #expect(!rules.excludes(path: deep, isFolder: false))
        #expect(rules.excludes(path: deep + "/y", isFolder: false))
    }

    @Test func filterFileLines() throws {
        let text = "# pictures only\n\n  # indented comment\n+ *.jpg\r\n- /tmp/\n-  two spaces\n"
        let rules = try FilterRule.parseFile(text)
        #expect(
            rules == [
                FilterRule(include: true, pattern: "*.jpg"), FilterRule(include: false, pattern: "/tmp/"),
                FilterRule(include: false, pattern: " two spaces"),
            ])
    }

    @Test(arguments: [
        ("+ a\nfoo\n", 2), ("+a\n", 1), ("# c\n\n*.jpg\n", 3), ("- \n", 1), ("+ /\n", 1), ("!\n", 1),
    ])
    func badFilterLinesNameTheirLine(text: String, line: Int) {
        #expect(throws: FilterRule.LineError.self) { try FilterRule.parseFile(text) }
        do {
            _ = try FilterRule.parseFile(text)
        } catch {
            #expect(error.line == line)
        }
    }
}
