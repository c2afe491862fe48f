import FTPListing

/// The bytes of one directory listing and the command that produced them.
public struct RawListing: Sendable, Equatable {
    /// MLSD or LIST.
    public var format: ListingFormat
    /// The data connection's bytes, unparsed.
    public var bytes: [UInt8]
    /// The final reply when the server says the listing is incomplete although it completed
    /// (Pure-FTPd's `226 Output truncated to N matches`, vsftpd's `226 Transfer done (but
    /// failed to open directory).`); nil otherwise.
    public var truncation: String? = nil
}
