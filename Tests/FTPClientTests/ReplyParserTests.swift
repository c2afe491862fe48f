// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Testing

/// Multi-line replies (RFC 959 §4.2) from the cases file, category multiline_reply.
@Suite struct ReplyParserTests {
    @Test func casesFileIsRead() {
        #expect(Cases.category("multiline_reply").count == 10)
        #expect(Cases.category("pasv_reply").count == 11)
        #expect(Cases.category("epsv_reply").count == 8)
    }

    /// Cases whose input is one complete reply: code, line count, completeness.
    @Test(arguments: ["MR-01", "MR-02", "MR-03", "MR-05", "MR-06", "MR-07", "MR-09", "MR-10"])
    func oneCompleteReply(_ id: String) throws {
        let item = try #require(Cases.named(id))
        let (replies, open) = try Cases.replies(item.input)
        #expect(!open)
        let reply = try #require(replies.count == 1 ? replies.first : nil)
        #expect(reply.code == item.expected["reply_code"]?.int)
        #expect(reply.lines.count == Cases.lines(Cases.bytes(item.input)).count)
        if let count = item.expected["line_count"]?.int { #expect(reply.lines.count == count) }
        if let textLines = item.expected["text_lines"]?.array {
            #expect(reply.textLines == textLines.compactMap(\.string))
        }
    }

    /// MR-03: `550` and an indented `  214 ...` inside a 250 reply are text; bare `250` ends it.
    @Test func otherCodesInsideAreText() throws {
        let item = try #require(Cases.named("MR-03"))
        let (replies, _) = try Cases.replies(item.input)
        #expect(replies.map(\.code) == [250])
        #expect(replies.first?.textLines == ["", "550", "  214 indented lines may begin with digits", ""])
    }

    /// MR-04: the case records two readings; we pin strict RFC 959 matching (as MR-03 needs):
    /// a `150 ` line does not end a `553-` reply, so the reply stays open and the session's
    /// read then ends with a timeout error, never a desynchronised reply.
    @Test func strictMatchingKeepsForeignTerminatorInside() throws {
        let item = try #require(Cases.named("MR-04"))
        let (replies, open) = try Cases.replies(item.input)
        #expect(replies.isEmpty)
        #expect(open)
    }

    /// MR-08: three replies in a row keep their boundaries; the third is a usable 227.
    @Test func consecutiveRepliesStayInStep() throws {
        let item = try #require(Cases.named("MR-08"))
        let (replies, open) = try Cases.replies(item.input)
        #expect(!open)
        #expect(replies.map(\.code) == [230, 200, 227])
        #expect(replies.first?.lines.count == 3)
        let endpoint = try PassiveEndpoint.parse(replies[2])
        #expect(endpoint.port == 51_210)
        #expect(endpoint.dataHost(peer: "198.51.100.30", policy: .peer) == "198.51.100.30")
    }

    /// FEAT replies (MR-05 with `211-` prefixes, MR-06 indented with a repeated MDTM, MR-07
    /// with a blank line): every expected feature with its parameters.
    @Test(arguments: ["MR-05", "MR-06", "MR-07"])
    func featuresFromFEAT(_ id: String) throws {
        let item = try #require(Cases.named(id))
        let reply = try #require(try Cases.replies(item.input).replies.first)
        let features = FTPFeatures(reply: reply)
        let expected = try #require(item.expected["features"]?.object)
        #expect(features.entries.count == expected.count)
        for (name, value) in expected {
            let parameters = value.array?.compactMap(\.string) ?? [value.string ?? ""]
            #expect(features.entries[name] == parameters, "\(name)")
        }
        if let facts = item.expected["mlst_default_facts"]?.array {
            #expect(features.mlstFacts == facts.compactMap(\.string))
        }
    }

    @Test func featureFlags() throws {
        let item = try #require(Cases.named("MR-05"))
        let reply = try #require(try Cases.replies(item.input).replies.first)
        let features = FTPFeatures(reply: reply)
        #expect(features.mlsd && features.epsv && features.utf8 && features.restStream)
        #expect(features.size && features.mdtm && features.authTLS)
        #expect(!features.mfmt && !features.hash)
    }

    /// Lines that cannot start a reply are protocol violations, not crashes.
    @Test(arguments: ["", "22", "hello", "2200 x", "600 no such class", "099 x", "220x", "\u{0}\u{0}\u{0}"])
    func malformedFirstLine(_ line: String) {
        var parser = ReplyParser()
        #expect(throws: FTPError.self) { try parser.feed(Array(line.utf8)) }
    }

    @Test func tooManyLinesIsAViolation() throws {
        var parser = ReplyParser()
        _ = try parser.feed(Array("211-start".utf8))
        var thrown: FTPError?
        for _ in 0...ReplyParser.maximumLines {
            do { _ = try parser.feed(Array(" x".utf8)) } catch {
                thrown = error
                break
            }
        }
        guard case .protocolViolation? = thrown else {
            Issue.record("expected a protocol violation, got \(String(describing: thrown))")
            return
        }
    }
}
