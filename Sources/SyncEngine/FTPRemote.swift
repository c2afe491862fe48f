import FTPClient
import FTPListing
import Foundation

/// `RemoteFileSystem` over one FTP control connection (`FTPSession`).
public final class FTPRemote: RemoteFileSystem {
    /// The logged-in session this adapter uses; it belongs to one device run only.
    public let session: FTPSession
    private let timeZone: TimeZone
    private let clock: () -> Date

    /// Wraps a session that is already connected and logged in.
    /// - Parameters:
    ///   - timeZone: the zone LIST times are in (the device's `timezone`).
    ///   - clock: the time used to infer the year of LIST lines without one.
    public init(session: FTPSession, timeZone: TimeZone, clock: @escaping () -> Date = Date.init) {
        self.session = session
        self.timeZone = timeZone
        self.clock = clock
    }

    /// Opens a fresh control connection, logs in, and wraps it.
    /// - Throws: `FTPError` when the device cannot be reached or refuses the login.
    public static func connect(
        _ configuration: FTPSessionConfiguration, timeZone: TimeZone, log: (@Sendable (String) -> Void)?
    ) throws -> FTPRemote {
        let session = FTPSession(configuration: configuration, log: log)
        try session.connect()
        return FTPRemote(session: session, timeZone: timeZone)
    }

    public func list(_ path: String) throws -> ParsedListing {
        var context = ListingContext(now: clock(), timeZone: timeZone)
        if session.configuration.encoding != nil {
            let codec = session.nameCodec
            context.decodeName = { codec.decode($0) }
        }
        return try session.list(path, context: context)
    }

    public func retrieve(_ path: String, from offset: UInt64, to sink: (UnsafeRawBufferPointer) throws -> Void) throws
        -> UInt64
    {
        try session.retrieve(path, from: offset, to: sink)
    }

    public func store(
        _ path: String, from offset: UInt64, append: Bool, source: (UnsafeMutableRawBufferPointer) throws -> Int
    ) throws -> UInt64 {
        try session.store(path, from: source, append: append, offset: offset)
    }

    public func size(_ path: String) throws -> UInt64 { try session.size(path) }

    public func delete(_ path: String) throws { try session.delete(path) }

    public func rename(from: String, to: String) throws { try session.rename(from: from, to: to) }

    public func makeDirectory(_ path: String) throws { try session.makeDirectory(path) }

    public func removeDirectory(_ path: String) throws { try session.removeDirectory(path) }

    public func setModificationTime(_ path: String, _ date: Date) throws {
        try session.setModificationTime(path, date)
    }

    public func close() {
        session.quit()
    }
}
