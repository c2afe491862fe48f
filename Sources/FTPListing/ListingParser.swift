// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Which command produced a listing.
public enum ListingFormat: Sendable {
    /// MLSD data (RFC 3659 §7): one `facts name` line per entry, times in UTC.
    case mlsd
    /// LIST data: UNIX `ls -l`, DOS/IIS or other lines, detected per line; times server-local.
    case list
}

/// What a parser needs beyond the bytes: the clock, the server's time zone and its name encoding.
public struct ListingContext: Sendable {
    /// The server's clock now (an instant), used to infer the year of LIST lines that show none
    /// and the century of two-digit DOS years.
    public var now: Date
    /// The time zone LIST times are given in (the device's `timezone`; MLSD is always UTC).
    public var timeZone: TimeZone
    /// Decodes the bytes of a name (and of a link target) in the device's encoding; nil means UTF-8.
    /// When it is nil or returns nil, the name is decoded as UTF-8 with invalid bytes mapped
    /// reversibly (`ListingNameCodec`). `ListingEntry.rawName` always holds the exact bytes.
    /// LIST date tokens with non-ASCII bytes (`5月` in GBK) are decoded with it too, before the
    /// line is read, and so is the quote of such a LIST line in its warning when it is unreadable.
    public var decodeName: (@Sendable ([UInt8]) -> String?)?

    /// - Parameters:
    ///   - now: the server's clock now.
    ///   - timeZone: the zone of LIST times; UTC by default.
    ///   - decodeName: the device's name decoder, nil for UTF-8.
    public init(
        now: Date, timeZone: TimeZone = TimeZone(identifier: "UTC")!,
        decodeName: (@Sendable ([UInt8]) -> String?)? = nil
    ) {
        self.now = now
        self.timeZone = timeZone
        self.decodeName = decodeName
    }
}

/// The entries of a listing and the lines that could not be read.
public struct ParsedListing: Sendable {
    /// Entries in the order listed, without `.` and `..` (nor MLSD `cdir`/`pdir`).
    public var entries: [ListingEntry]
    /// One message per line no parser understood, quoting the line.
    public var warnings: [String]
    /// Why the listing is known to be incomplete (the server said it cut it short), or nil.
    /// Set by whoever received it, not by the parser.
    public var truncation: String? = nil

    public init(entries: [ListingEntry] = [], warnings: [String] = []) {
        self.entries = entries
        self.warnings = warnings
    }
}

/// What one listing line gave.
public enum ParsedLine: Sendable, Hashable {
    /// The line describes this entry.
    case entry(ListingEntry)
    /// The line is known noise: blank, `total N`, `.`/`..`, `cdir`/`pdir`, an `ls` error message,
    /// an entry without a name. It costs nothing and is not reported.
    case ignored
    /// The line could not be read; the message says why and quotes the line.
    case rejected(String)
}

/// Parses listings. Pure: no clock, disk or network; everything it needs comes in `context`.
public enum ListingParser {
    /// Parses the data of one MLSD or LIST transfer.
    /// - Parameters:
    ///   - data: the bytes of the data connection, lines ended by CRLF or LF (split on bytes,
    ///     before any decoding). When every line ends in CR CR LF (servers that add a CR to
    ///     lines that already had one; blank lines and `total N` lines aside), both CRs are
    ///     dropped; otherwise one, so a name may end in CR.
    ///   - format: the command that produced them.
    ///   - context: clock, time zone and name decoder.
    /// - Returns: the entries and a warning for each line that could not be read.
    public static func parse(_ data: [UInt8], format: ListingFormat, context: ListingContext) -> ParsedListing {
        let reader = ListingReader(context: context)
        var result = ParsedListing()
        result.entries.reserveCapacity(data.count / 64)
        data.withUnsafeBufferPointer { all in
            let endingCRs = lineEndingCRs(all, reader: reader)
            var start = 0
            let count = all.count
            while start < count {
                var end = start
                while end < count && all[end] != 0x0A { end += 1 }
                let next = end + 1
                var dropped = 0
                while dropped < endingCRs && end > start && all[end - 1] == 0x0D {
                    end -= 1
                    dropped += 1
                }
                let line = UnsafeBufferPointer(rebasing: all[start..<end])
                let parsed = reader.parse(line: line, format: format)
                if let orphan = reader.takeVMSWarning() { result.warnings.append(orphan) }
                switch parsed {
                case .entry(let entry): reader.place(entry, in: &result.entries)
                case .ignored: break
                case .rejected(let message): result.warnings.append(message)
                }
                start = next
            }
        }
        reader.flushVMSName()
        if let orphan = reader.takeVMSWarning() { result.warnings.append(orphan) }
        return result
    }

    /// How many CRs end each line of `data`: 2 when every line ends in CR CR LF, else 1. A last
    /// line without LF (cut short) does not count, nor do blank lines and noise (`total 2`), which
    /// servers may end differently. Decided for the whole listing, since one name may end in CR.
    static func lineEndingCRs(_ data: UnsafeBufferPointer<UInt8>, reader: ListingReader) -> Int {
        var start = 0
        var lines = 0
        let count = data.count
        while start < count {
            var end = start
            while end < count && data[end] != 0x0A { end += 1 }
            if end == count { break }
            if end - start >= 2, data[end - 1] == 0x0D, data[end - 2] == 0x0D {
                lines += 1
            } else if !reader.isBlankOrNoise(UnsafeBufferPointer(rebasing: data[start..<end])) {
                return 1
            }
            start = end + 1
        }
        return lines > 0 ? 2 : 1
    }

    /// Parses one listing line (without its line ending).
    /// - Parameters:
    ///   - line: the bytes of the line; one trailing CR is dropped.
    ///   - format: the command that produced it.
    ///   - context: clock, time zone and name decoder.
    /// - Returns: the entry, `.ignored` for known noise, or `.rejected` with a message (also for
    ///   a VMS name alone on its line, whose fields would be on the next).
    public static func parseLine(_ line: [UInt8], format: ListingFormat, context: ListingContext) -> ParsedLine {
        var bytes = line
        if bytes.last == 0x0A { bytes.removeLast() }
        if bytes.last == 0x0D { bytes.removeLast() }
        let reader = ListingReader(context: context)
        let parsed = bytes.withUnsafeBufferPointer { reader.parse(line: $0, format: format) }
        reader.flushVMSName()
        return reader.takeVMSWarning().map { .rejected($0) } ?? parsed
    }

    /// Parses the reply to MLST (RFC 3659 §7.2) from the control connection.
    ///
    /// Accepts the forms servers send: `250-text`, then the fact line with one or more leading
    /// spaces, with no space, or with a `250-` prefix, blank lines, then `250 text`.
    /// - Parameters:
    ///   - reply: the whole reply, reply-code lines included.
    ///   - context: the name decoder (times in MLST are UTC).
    /// - Returns: the entry of the first fact line, or nil when the reply holds none. Its name is
    ///   the path as the server echoed it (it may contain `/`); `cdir` is reported as `.dir`.
    public static func parseMLSTReply(_ reply: [UInt8], context: ListingContext) -> ListingEntry? {
        let reader = ListingReader(context: context)
        return reply.withUnsafeBufferPointer { reader.parseMLSTReply($0) }
    }

    /// Parses the reply to MLST given as text; see `parseMLSTReply(_:context:)` for bytes.
    /// - Parameters:
    ///   - replyText: the whole reply, reply-code lines included.
    ///   - context: the name decoder.
    /// - Returns: the entry, or nil when the reply holds no fact line.
    public static func parseMLSTReply(_ replyText: String, context: ListingContext) -> ListingEntry? {
        parseMLSTReply(Array(replyText.utf8), context: context)
    }

    /// Parses an RFC 3659 §2.3 `time-val` (`YYYYMMDDHHMMSS[.F...]`, UTC), as in MLSD `modify`
    /// and the MDTM reply. Also reads the `19100...` year some Y2K-era servers send for 2000.
    /// - Parameter text: the value, without the reply code.
    /// - Returns: the instant with `.second` or `.subsecond` precision, or nil when malformed.
    public static func parseTimeVal(_ text: String) -> ListedTime? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { TimeValParser.parse($0) }
    }
}
