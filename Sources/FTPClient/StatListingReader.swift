// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// Reads the reply to `STAT <folder>` (RFC 959 §4.1.3) as a listing, line by line, as the
/// lines arrive: a multi-line 211, 212 or 213 reply whose first line (`213-Status of /DCIM:`)
/// and last line (`213 End of status`) are headers, and whose lines between are the folder's
/// LIST lines: indented by spaces (RFC 959 §4.2's advice, so that no line looks like the end)
/// or each prefixed with the reply's code and `-` (`213-drwxr-xr-x ...`).
///
/// A line inside the reply ends it only when it starts with the reply's own code and a space
/// (or is the code alone): a listed name that looks like a reply code is no end. The LIST lines
/// are kept up to `maximumBytes`; further lines are counted and left out (the listing is then
/// incomplete), and a reply that goes on for as much again is a protocol violation.
struct StatListingReader {
    /// Most bytes of LIST lines kept (their CR LF included).
    let maximumBytes: Int
    /// The reply's code, once its first line was read.
    private(set) var code: Int?
    /// True when the reply was one line (`211 ...`): server status, no listing.
    private(set) var isSingleLine = false
    /// The LIST lines kept, each ended by CR LF, for the LIST parser.
    private(set) var bytes: [UInt8] = []
    /// Lines left out beyond `maximumBytes`.
    private(set) var droppedLines = 0
    private var droppedBytes = 0
    private var ended = false

    /// - Parameter maximumBytes: most bytes of LIST lines kept (at least 1).
    init(maximumBytes: Int) { self.maximumBytes = max(maximumBytes, 1) }

    /// Feeds one line of the reply (without its CR LF).
    /// - Parameter reserve: told the size of a LIST line before it is kept; may throw to
    ///   abandon the listing (a listing budget).
    /// - Returns: true when the line ended the reply.
    /// - Throws: `.protocolViolation` when the first line starts with no reply code, when the
    ///   reply goes on beyond twice `maximumBytes`, or when `reserve` throws (quoting its error).
    mutating func feed(_ line: [UInt8], reserve: ((Int) throws -> Void)? = nil) throws(FTPError) -> Bool {
        guard !ended else { return true }
        guard let open = code else {
            // The first line is read as any reply's is (and refused alike when it has no code).
            var parser = ReplyParser()
            if let single = try parser.feed(line) {
                code = single.code
                isSingleLine = true
                ended = true
            } else {
                code = ReplyParser.codePrefix(line)?.0
            }
            return ended
        }
        var content = line[...]
        if let (lineCode, separator) = ReplyParser.codePrefix(line), lineCode == open {
            if separator != UInt8(ascii: "-") {
                ended = true
                return true
            }
            content = content.dropFirst(4)
        }
        while let first = content.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            content = content.dropFirst()
        }
        if content.isEmpty { return false }
        let size = content.count + 2
        if droppedLines > 0 || bytes.count > maximumBytes - size {
            droppedLines += 1
            droppedBytes += size
            if droppedBytes > maximumBytes {
                throw .protocolViolation("a STAT listing longer than \(2 * maximumBytes) bytes")
            }
            return false
        }
        do {
            try reserve?(size)
        } catch {
            throw .protocolViolation("listing: \(error)")
        }
        bytes += content
        bytes += [13, 10]
        return false
    }
}
