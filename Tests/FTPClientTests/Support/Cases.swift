// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation

/// The real-world cases of Data/ftp-cases.json (a copy of /work/shared/cases), read relative
/// to this file.
enum Cases {
    struct Case: Sendable, CustomStringConvertible {
        let id: String
        let category: String
        let input: String
        let expected: [String: JSONValue]
        var description: String { id }
    }

    static let all: [Case] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Data/ftp-cases.json")
        guard let data = try? Data(contentsOf: url),
            let array = try? JSONDecoder().decode([[String: JSONValue]].self, from: data)
        else { return [] }
        return array.compactMap { item in
            guard case .string(let id)? = item["id"], case .string(let category)? = item["category"],
                case .string(let input)? = item["input"], case .object(let expected)? = item["expected"]
            else { return nil }
            return Case(id: id, category: category, input: input, expected: expected)
        }
    }()

    static func category(_ name: String) -> [Case] { all.filter { $0.category == name } }

    static func named(_ id: String) -> Case? { all.first { $0.id == id } }

    /// The input's bytes: `\xNN` stands for one raw byte.
    static func bytes(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let first = utf8.first {
            if first == UInt8(ascii: "\\"), utf8.count >= 4, utf8.dropFirst().first == UInt8(ascii: "x"),
                let value = UInt8(String(decoding: utf8.dropFirst(2).prefix(2), as: UTF8.self), radix: 16)
            {
                out.append(value)
                utf8 = utf8.dropFirst(4)
            } else {
                out.append(first)
                utf8 = utf8.dropFirst()
            }
        }
        return out
    }

    /// Splits wire bytes into lines at LF, dropping a CR before it (CRLF semantics).
    static func lines(_ bytes: [UInt8]) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        for byte in bytes {
            if byte == 10 {
                if current.last == 13 { current.removeLast() }
                lines.append(current)
                current = []
            } else {
                current.append(byte)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// Feeds wire text to a reply parser.
    /// - Returns: the complete replies and whether a reply is still open at the end.
    static func replies(_ text: String) throws -> (replies: [FTPReply], open: Bool) {
        var parser = ReplyParser()
        var replies: [FTPReply] = []
        for line in lines(bytes(text)) {
            if let reply = try parser.feed(line) { replies.append(reply) }
        }
        return (replies, parser.isInsideReply)
    }

    /// `203.0.113.25:21` or `[2001:db8::15]:21` to its host.
    static func host(ofPeer peer: String) -> String {
        if peer.hasPrefix("["), let end = peer.firstIndex(of: "]") {
            return String(peer[peer.index(after: peer.startIndex)..<end])
        }
        return String(peer.split(separator: ":").first ?? "")
    }
}

/// Any JSON value.
enum JSONValue: Decodable, Sendable, Equatable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    var string: String? { if case .string(let value) = self { value } else { nil } }
    var int: Int? { if case .number(let value) = self { Int(value) } else { nil } }
    var object: [String: JSONValue]? { if case .object(let value) = self { value } else { nil } }
    var array: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
}
