import FTPClient
import FTPListing
import Foundation

/// `RemoteFileSystem` over one FTP control connection (`FTPSession`).
public final class FTPRemote: RemoteFileSystem {
    /// The logged-in session this adapter uses; it belongs to one device run only.
    public let session: FTPSession
    private let timeZone: TimeZone
    private let clock: () -> Date
    /// Seconds the server's clock is ahead of ours (nil until measured; see `list`).
    var clockOffset: TimeInterval?
    /// True once the one MDTM of a run was spent.
    var offsetProbed = false
    /// Server spellings of paths whose NFC form differs, keyed by the NFC path.
    var serverNames: [String: String] = [:]
    /// The device's budget for listings (bytes at once, entries in total); nil for none beyond
    /// the client's cap per listing.
    public var listingBudget: ListingBudget?

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

    /// Lists one folder: MLSD when offered, else LIST parsed in the device's time zone with the
    /// server's clock for year inference. The first LIST listing of the run that shows a
    /// minute-precise file costs one MDTM (when FEAT lists MDTM): the difference between the
    /// MDTM time (UTC) and the listed time is the server's clock offset, and `now` is the local
    /// clock plus that offset from then on (for a camera whose clock is years off, or a zone
    /// set wrong). Names are decoded with the device's encoding; undecodable bytes are kept
    /// reversibly (U+F700 + byte) and sent back byte-exact by `NameCodec.encode`.
    ///
    /// `path` may use the normalized (NFC) form of names the server spells otherwise (NFD):
    /// the server's own spelling, learned from earlier listings, is sent.
    /// - Throws: `FTPError` when the folder cannot be listed; `ListingBudgetExceeded` when the
    ///   listing goes over `listingBudget` (the bytes cap surfaces as `FTPError.protocolViolation`
    ///   quoting it, and `listingBudget.failure` holds it).
    public func list(_ path: String) throws -> ParsedListing {
        let serverFolder = serverPath(path)
        let codec = session.nameCodec
        var context = ListingContext(now: clock().addingTimeInterval(clockOffset ?? 0), timeZone: timeZone)
        context.decodeName = { codec.decode($0) }
        // The bytes received are charged to the device's budget until parsed (then freed).
        let budget = listingBudget
        var reserved = 0
        defer { budget?.release(reserved) }
        let raw = try session.listRaw(
            serverFolder,
            reserve: budget.map { budget in
                { count in
                    try budget.reserve(count, listing: path)
                    reserved += count
                }
            })
        var parsed = ListingParser.parse(raw.bytes, format: raw.format, context: context)
        parsed.truncation = raw.truncation
        if raw.format == .list, clockOffset == nil, let offset = probeClockOffset(parsed, folder: serverFolder) {
            clockOffset = offset
            if offset != 0 {
                context.now = clock().addingTimeInterval(offset)
                parsed = ListingParser.parse(raw.bytes, format: raw.format, context: context)
            }
        }
        let folderKey = Self.normalized(path)
        // Twins (names equal in NFC) each keep their own spelling, under their own path (`NameTwins`).
        let twins = NameTwins.renamed(parsed.entries.map(\.name))
        for (index, entry) in parsed.entries.enumerated() where entry.name != "." && entry.name != ".." {
            let key = Self.join(folderKey, twins[index] ?? entry.name.nfc)
            let spelled = Self.join(serverFolder, entry.name)
            // Compared as bytes: Swift's String equality treats NFC and NFD as equal.
            if !key.utf8.elementsEqual(spelled.utf8) { serverNames[key] = spelled }
        }
        try budget?.count(entries: parsed.entries.count, listing: path)
        return parsed
    }

    /// The server's spelling of `path` (see `list`), or `path` itself. A name no listing
    /// showed (a new file, an upload's temporary) inside a folder the server spells otherwise
    /// goes into the folder as the server spells it.
    func serverPath(_ path: String) -> String {
        if serverNames.isEmpty { return path }
        if let spelled = serverNames[Self.normalized(path)] { return spelled }
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return path }
        let folder = String(path[..<slash])
        let spelledFolder = serverPath(folder)
        // Compared as bytes: Swift's String equality treats NFC and NFD as equal.
        if spelledFolder.utf8.elementsEqual(folder.utf8) { return path }
        return spelledFolder + path[slash...]
    }

    /// The offset (seconds) of the server's clock from ours, from one MDTM of a file the listing
    /// shows without a year (so the server thinks it is under ~6 months old); nil when no entry
    /// fits or the server has no MDTM.
    ///
    /// A file newer than our clock + 1 day means the server runs ahead by at least that much;
    /// one older than our clock − 183 days means it runs behind, by the difference between its
    /// MDTM time and the listed time (the year inference was off by whole years). Anything in
    /// between is a time-zone difference or none, which year inference tolerates: 0.
    private func probeClockOffset(_ listing: ParsedListing, folder: String) -> TimeInterval? {
        guard !offsetProbed, session.features.mdtm else { return nil }
        guard
            let entry = listing.entries.first(where: {
                $0.type == .file && $0.modified?.precision == .minute && $0.yearInferred
            }), let listed = entry.modified?.date
        else { return nil }
        offsetProbed = true
        guard let exact = try? session.modificationTime(Self.join(folder, entry.name)) else { return nil }
        let ours = clock()
        let day: TimeInterval = 86_400
        let offset: TimeInterval
        if exact > ours.addingTimeInterval(day) {
            offset = exact.timeIntervalSince(ours)
        } else if exact < ours.addingTimeInterval(-183 * day) {
            offset = exact.timeIntervalSince(listed)
        } else {
            offset = 0
        }
        return (offset / 60).rounded() * 60
    }

    private static func normalized(_ path: String) -> String {
        path.nfc
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    public func retrieve(_ path: String, from offset: UInt64, to sink: (UnsafeRawBufferPointer) throws -> Void) throws
        -> UInt64
    {
        try session.retrieve(serverPath(path), from: offset, to: sink)
    }

    public func store(
        _ path: String, from offset: UInt64, append: Bool, file: Int32, fileOffset: UInt64, length: UInt64,
        progress: (Int) throws -> Void
    ) throws -> UInt64 {
        try session.store(
            serverPath(path), file: file, fileOffset: fileOffset, length: length, append: append, offset: offset,
            progress: progress)
    }

    public func size(_ path: String) throws -> UInt64 { try session.size(serverPath(path)) }

    public func delete(_ path: String) throws { try session.delete(serverPath(path)) }

    public func rename(from: String, to: String) throws {
        try session.rename(from: serverPath(from), to: serverPath(to))
    }

    public func makeDirectory(_ path: String) throws { try session.makeDirectory(serverPath(path)) }

    public func removeDirectory(_ path: String) throws { try session.removeDirectory(serverPath(path)) }

    public func setModificationTime(_ path: String, _ date: Date) throws {
        try session.setModificationTime(serverPath(path), date)
    }

    public func preciseModificationTime(_ path: String) throws -> Date? {
        guard session.features.mdtm else { return nil }
        return try session.modificationTime(serverPath(path))
    }

    public func close() {
        session.quit()
    }
}
