extension FTPRemote {
    /// Takes over what `other` (the device run's first connection) learned from its listings:
    /// the server's spellings of names (NFD) and the server's clock offset, so an extra
    /// connection of the same device names files exactly as the first one does.
    func learn(from other: FTPRemote) {
        serverNames = other.serverNames
        clockOffset = other.clockOffset
        offsetProbed = other.offsetProbed
    }

    /// Adds what `other` (an extra connection of the same device run, done listing) learned:
    /// the spellings of the names it listed and, when this connection has none yet, its
    /// measure of the server's clock offset.
    func absorb(_ other: FTPRemote) {
        serverNames.merge(other.serverNames) { mine, _ in mine }
        if clockOffset == nil, let offset = other.clockOffset { clockOffset = offset }
        offsetProbed = offsetProbed || other.offsetProbed
    }

    /// The server's spelling of `path` when it differs from `path` (learned from a listing).
    func spelling(of path: String) -> String? {
        serverNames[path.nfc]
    }

    /// Remembers that the server spells `path` as `spelling` (taught by another connection).
    func remember(spelling: String, of path: String) {
        serverNames[path.nfc] = spelling
    }
}

/// What a device run's first connection learned, copied on its own thread so that an extra
/// connection opened on another thread can take it over without touching the first one.
struct LearnedState: Sendable {
    var serverNames: [String: String]
    var clockOffset: Double?
    var offsetProbed: Bool

    /// A copy of what `remote` learned; nothing when it is not an FTP session.
    init(_ remote: FTPRemote?) {
        serverNames = remote?.serverNames ?? [:]
        clockOffset = remote?.clockOffset
        offsetProbed = remote?.offsetProbed ?? false
    }

    /// Gives `remote` what was learned.
    func teach(_ remote: FTPRemote) {
        remote.serverNames = serverNames
        remote.clockOffset = clockOffset
        remote.offsetProbed = offsetProbed
    }
}

/// Opens one more connection of a device run with `connect` and, for FTP, gives it what the
/// first connection learned (see `FTPRemote.learn(from:)`).
/// - Throws: what `connect` throws.
func openSibling(of first: RemoteFileSystem, _ connect: () throws -> RemoteFileSystem) throws -> RemoteFileSystem {
    let extra = try connect()
    let learned = (first as? ResilientRemote)?.current ?? first
    if let extra = extra as? FTPRemote, let learned = learned as? FTPRemote { extra.learn(from: learned) }
    return extra
}
