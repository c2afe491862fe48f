import Foundation

/// Which command produced a listing.
public enum ListingFormat: Sendable {
    /// MLSD data (RFC 3659 §7): one `facts name` line per entry, times in UTC.
    case mlsd
    /// LIST data: UNIX `ls -l`, DOS/IIS or other lines, detected per line; times server-local.
    case list
}

/// What a parser needs beyond the bytes: the clock and the server's time zone.
public struct ListingContext: Sendable {
    /// The server's clock now (an instant), used to infer the year of LIST lines that show none.
    public var now: Date
    /// The time zone LIST times are given in (the device's `timezone`; MLSD is always UTC).
    public var timeZone: TimeZone

    public init(now: Date, timeZone: TimeZone = TimeZone(identifier: "UTC")!) {
        self.now = now
        self.timeZone = timeZone
    }
}

/// The entries of a listing and the lines that could not be read.
public struct ParsedListing: Sendable {
    /// Entries in the order listed, without `.` and `..`.
    public var entries: [ListingEntry]
    /// One message per line no parser understood, quoting the line.
    public var warnings: [String]

    public init(entries: [ListingEntry] = [], warnings: [String] = []) {
        self.entries = entries
        self.warnings = warnings
    }
}

/// Parses listings. Pure: no clock, disk or network; everything it needs comes in `context`.
public enum ListingParser {
    /// Parses the data of one MLSD or LIST transfer.
    /// - Parameters:
    ///   - data: the bytes of the data connection, lines ended by CRLF or LF.
    ///   - format: the command that produced them.
    ///   - context: clock and time zone.
    /// - Returns: the entries and a warning for each line that could not be read.
    public static func parse(_ data: [UInt8], format: ListingFormat, context: ListingContext) -> ParsedListing {
        ParsedListing()
    }
}
