// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// One complete reply on the control connection (RFC 959 §4.2): a three-digit code and
/// one or more lines of text.
public struct FTPReply: Sendable, Equatable {
    /// The reply code, 100...599.
    public var code: Int
    /// Every line as received, without its CRLF, the code prefixes included.
    public var lines: [String]

    /// Creates a reply from its code and raw lines.
    public init(code: Int, lines: [String]) {
        self.code = code
        self.lines = lines
    }

    /// The text of each line: lines that start with the reply's own code followed by `-`
    /// or a space lose those four characters; other lines are kept as they are.
    public var textLines: [String] {
        let prefix = String(code)
        return lines.map { line in
            guard line.hasPrefix(prefix) else { return line }
            let rest = line.dropFirst(3)
            if rest.isEmpty { return "" }
            if rest.first == "-" || rest.first == " " { return String(rest.dropFirst()) }
            return line
        }
    }

    /// The text of all lines, joined with a space: what an error message shows.
    public var text: String {
        textLines.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// 1xx: positive preliminary (a data transfer starts; another reply follows).
    public var isPreliminary: Bool { (100..<200).contains(code) }
    /// 2xx: positive completion.
    public var isCompletion: Bool { (200..<300).contains(code) }
    /// 3xx: positive intermediate (the command needs a follow-up, e.g. PASS after USER).
    public var isIntermediate: Bool { (300..<400).contains(code) }
}

/// Assembles replies from control-connection lines (RFC 959 §4.2).
///
/// A reply is one line `DDD text`, or a first line `DDD-text`, any lines, and a last line
/// starting with the same code followed by a space or ending right after the code. Lines
/// inside may start with other digits or spaces. A line `DDD ` with a different code inside
/// a multi-line reply is text, not the end (strict RFC 959 matching).
public struct ReplyParser: Sendable {
    /// Most lines one reply may have before it is a protocol violation.
    public static let maximumLines = 10_000

    private var code: Int?
    private var lines: [String] = []

    /// Creates a parser waiting for the first line of a reply.
    public init() {}

    /// True while a multi-line reply has started and not ended.
    public var isInsideReply: Bool { code != nil }

    /// Feeds one line (bytes without CR LF).
    /// - Returns: the complete reply when this line ends one, else nil.
    /// - Throws: `FTPError.protocolViolation` when a first line does not start with a reply
    ///   code (three digits 1-5, 0-9, 0-9 followed by a space, `-` or the end of the line) or
    ///   when a reply exceeds `maximumLines`.
    public mutating func feed(_ bytes: some Collection<UInt8>) throws(FTPError) -> FTPReply? {
        let line = String(decoding: bytes, as: UTF8.self)
        let bytes = Array(bytes)
        if let open = code {
            lines.append(line)
            if lines.count > Self.maximumLines {
                throw .protocolViolation("a reply longer than \(Self.maximumLines) lines")
            }
            if let (lineCode, separator) = Self.codePrefix(bytes), lineCode == open, separator != UInt8(ascii: "-") {
                let reply = FTPReply(code: open, lines: lines)
                code = nil
                lines = []
                return reply
            }
            return nil
        }
        guard let (lineCode, separator) = Self.codePrefix(bytes) else {
            let shown = line.count > 80 ? String(line.prefix(80)) + "…" : line
            throw .protocolViolation("reply line without a reply code: \"\(shown)\"")
        }
        if separator == UInt8(ascii: "-") {
            code = lineCode
            lines = [line]
            return nil
        }
        return FTPReply(code: lineCode, lines: [line])
    }

    /// The code and the byte after it (0 when the line ends after the code), when `bytes`
    /// starts with a valid reply code.
    static func codePrefix(_ bytes: [UInt8]) -> (Int, UInt8)? {
        guard bytes.count >= 3 else { return nil }
        let d0 = bytes[0]
        let d1 = bytes[1]
        let d2 = bytes[2]
        guard (UInt8(ascii: "1")...UInt8(ascii: "5")).contains(d0),
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(d1),
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(d2)
        else { return nil }
        let value = Int(d0 - 48) * 100 + Int(d1 - 48) * 10 + Int(d2 - 48)
        if bytes.count == 3 { return (value, 0) }
        let separator = bytes[3]
        guard separator == UInt8(ascii: " ") || separator == UInt8(ascii: "-") else { return nil }
        return (value, separator)
    }
}
