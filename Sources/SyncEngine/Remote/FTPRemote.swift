// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import FTPListing
import Foundation
import LocalTree
import SyncCore

/// `RemoteFileSystem` over one FTP control connection (`FTPSession`).
public final class FTPRemote: RemoteFileSystem {
    /// The logged-in session this adapter uses; it belongs to one device run only.
    public let session: FTPSession
    private let timeZone: TimeZone
    private let clock: () -> Date
    /// What listings taught of the server: its spelling of names (NFD), its clock's offset
    /// (see `list`).
    public var learned = LearnedState()
    /// The device's budget for listings (bytes at once; the walk counts the entries held); nil for none beyond
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
    /// server's clock for year inference (LIST lines over the control connection, `STAT`, when
    /// listing data connections fail twice, or once after `learned.controlListingHint`). Sizes the
    /// listing gives only roughly are asked with SIZE (`confirmSizes`). The first LIST listing
    /// of the run that shows a minute-precise file costs one MDTM (when FEAT lists MDTM): the difference between the
    /// MDTM time (UTC) and the listed time is the server's clock offset, and `now` is the local
    /// clock plus that offset from then on (for a camera whose clock is years off, or a zone
    /// set wrong). Names are decoded with the device's encoding; undecodable bytes are kept
    /// reversibly (U+F700 + byte) and sent back byte-exact by `NameCodec.encode`.
    ///
    /// `path` may use the normalized (NFC) form of names the server spells otherwise (NFD):
    /// the server's own spelling, learned from earlier listings, is sent.
    /// - Throws: `FTPError` when the folder cannot be listed; `FTPError.protocolViolation`
    ///   quoting the cap when the listing goes over `listingBudget`'s bytes at once
    ///   (`listingBudget.failure` holds it). Its entries are counted by the walk that holds
    ///   them (`RemoteScanner`), not here.
    public func list(_ path: String) throws -> ParsedListing {
        let serverFolder = serverPath(path)
        let codec = session.nameCodec
        var context = ListingContext(now: clock().addingTimeInterval(learned.clockOffset ?? 0), timeZone: timeZone)
        context.decodeName = { codec.decode($0) }
        // The bytes received are charged to the device's budget until parsed (then freed).
        let budget = listingBudget
        var reserved = 0
        defer { budget?.release(reserved) }
        if let hint = learned.controlListingHint, session.controlListingReason == nil {
            session.expectControlListing(because: hint)
        }
        if let reason = learned.plainList, session.plainListReason == nil { session.expectPlainList(because: reason) }
        let raw = try session.listRaw(
            serverFolder,
            reserve: budget.map { budget in
                { count in
                    try budget.reserve(count, listing: path)
                    reserved += count
                }
            })
        // The listing tested the hint: a data connection worked, or STAT took over.
        learned.controlListingHint = nil
        if let reason = session.controlListingReason { learned.controlListing = reason }
        if let reason = session.plainListReason { learned.plainList = reason }
        var parsed = ListingParser.parse(raw.bytes, format: raw.format, context: context)
        parsed.truncation = raw.truncation
        if raw.format == .list, learned.clockOffset == nil, let offset = probeClockOffset(parsed, folder: serverFolder)
        {
            learned.clockOffset = offset
            if offset != 0 {
                context.now = clock().addingTimeInterval(offset)
                parsed = ListingParser.parse(raw.bytes, format: raw.format, context: context)
            }
        }
        try confirmSizes(of: &parsed, in: serverFolder)
        let folderKey = Self.normalized(path)
        // Twins (names equal in NFC) each keep their own spelling, under their own path (`NameTwins`).
        let twins = NameTwins.renamed(parsed.entries.map(\.name))
        for (index, entry) in parsed.entries.enumerated() where entry.name != "." && entry.name != ".." {
            let key = Self.join(folderKey, twins[index] ?? entry.name.nfc)
            let spelled = Self.join(serverFolder, entry.name)
            // Compared as bytes: Swift's String equality treats NFC and NFD as equal.
            if !key.utf8.elementsEqual(spelled.utf8) { learned.serverNames[key] = spelled }
        }
        return parsed
    }

    /// The server's spelling of `path` (see `list`), or `path` itself. A name no listing
    /// showed (a new file, an upload's temporary) inside a folder the server spells otherwise
    /// goes into the folder as the server spells it.
    func serverPath(_ path: String) -> String {
        if learned.serverNames.isEmpty { return path }
        if let spelled = learned.serverNames[Self.normalized(path)] { return spelled }
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
        guard !learned.offsetProbed, session.features.mdtm else { return nil }
        guard
            let entry = listing.entries.first(where: {
                $0.type == .file && $0.modified?.precision == .minute && $0.yearInferred
            }), let listed = entry.modified?.date
        else { return nil }
        learned.offsetProbed = true
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
        remotePath(root: folder, relative: name)
    }

    public func retrieve(_ path: String, from offset: UInt64, to sink: (UnsafeRawBufferPointer) throws -> Void) throws
        -> UInt64
    {
        try session.retrieve(serverPath(path), from: offset, to: sink)
    }

    /// Uploads as `RemoteFileSystem.store` says. A plain local file (`LocalFileReader`) is read by its
    /// descriptor (`FTPSession.store(_:file:...)`); any other source through `UploadSource`.
    public func store(
        _ path: String, from offset: UInt64, append: Bool, source: UploadSource, sourceOffset: UInt64,
        length: UInt64, progress: (Int) throws -> Void
    ) throws -> UInt64 {
        if let file = source as? LocalFileReader {
            return try session.store(
                serverPath(path), file: file.descriptor, fileOffset: sourceOffset, length: length, append: append,
                offset: offset, progress: progress)
        }
        var position = sourceOffset
        var left = length
        return try session.store(
            serverPath(path),
            from: { buffer in
                let wanted = Int(min(UInt64(buffer.count), left))
                guard wanted > 0 else { return 0 }
                let count = try source.read(
                    into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]), at: position)
                position = Saturating.add(position, UInt64(count))
                left -= UInt64(count)
                try progress(count)
                return count
            }, append: append, offset: offset)
    }

    public func size(_ path: String) throws -> UInt64 { try session.size(serverPath(path)) }

    public func announce(_ followUp: TransferFollowUp) {
        var spelled = followUp
        spelled.next = followUp.next.map(serverPath)
        session.announce(spelled)
    }

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

    public func sizes(_ paths: [String]) throws -> [Result<UInt64, Error>] {
        try session.sizes(paths.map(serverPath)).map { $0.mapError { $0 } }
    }

    public func preciseModificationTimes(_ paths: [String]) throws -> [Result<Date, Error>]? {
        guard session.features.mdtm else { return nil }
        return try session.modificationTimes(paths.map(serverPath)).map { $0.mapError { $0 } }
    }

    /// True while the control connection is open.
    public var isConnected: Bool { session.isConnected }

    /// The server's banner, SYST, FEAT and certificate; nil when SYST fails.
    public func identity() -> RemoteIdentity? {
        guard let identity = try? ServerIdentity(session: session) else { return nil }
        return RemoteIdentity(
            identity: identity, featuresUnknown: session.featuresTreatedAsAbsent, notes: session.notes)
    }

    /// The server's digest of the file at `path`, as `FTPSession.serverHash` (the server's own
    /// spelling of the name sent); nil when the server offers no hash.
    public func serverHash(_ path: String, size: UInt64?) throws -> ServerHash? {
        try session.serverHash(serverPath(path), size: size)
    }

    /// The server's digest of the bytes `range` of `path`, as `FTPSession.serverHash(_:range:)`.
    public func serverHash(_ path: String, range: Range<UInt64>) throws -> ServerHash? {
        try session.serverHash(serverPath(path), range: range)
    }

    /// As `FTPSession.expectedHashAlgorithm`.
    public var expectedHashAlgorithm: ServerHashAlgorithm? { session.expectedHashAlgorithm }

    /// As `FTPSession.fileHashAlgorithm()`.
    public func fileHashAlgorithm() throws -> ServerHashAlgorithm? { try session.fileHashAlgorithm() }

    public func close() {
        session.quit()
    }
}
