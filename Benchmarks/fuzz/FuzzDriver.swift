// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPListing
import Foundation

/// Runs one input through every parser of server data; shared by the libFuzzer target and the
/// test suite's random-input test (which compiles the same logic against the real modules).
enum FuzzDriver {
    static func run(_ bytes: [UInt8], context: ListingContext) {
        // Listings: the bytes as one MLSD and one LIST data connection.
        _ = ListingParser.parse(bytes, format: .mlsd, context: context)
        _ = ListingParser.parse(bytes, format: .list, context: context)
        _ = ListingParser.parseMLSTReply(bytes, context: context)
        // Control connection: split at LF (CR stripped), feed every line to the reply parser.
        var parser = ReplyParser()
        var replies: [FTPReply] = []
        for line in bytes.split(separator: 10, omittingEmptySubsequences: false) {
            let trimmed = line.last == 13 ? line.dropLast() : line
            do {
                if let reply = try parser.feed(trimmed) { replies.append(reply) }
            } catch {
                parser = ReplyParser()
            }
        }
        // Every reply seen, and the whole input as the text of a 227, 229 and 211 reply.
        let text = String(decoding: bytes, as: UTF8.self)
        replies += [227, 229, 211].map { FTPReply(code: $0, lines: ["\($0) " + text]) }
        replies.append(
            FTPReply(code: 211, lines: ["211-Features:"] + text.split(separator: "\n").map(String.init) + ["211 End"]))
        for reply in replies {
            _ = try? PassiveEndpoint.parse(reply)
            _ = FTPFeatures(reply: reply)
            _ = reply.text
        }
        _ = FTPTime.parse(text)
    }
}
