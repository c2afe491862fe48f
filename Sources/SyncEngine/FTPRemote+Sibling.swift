extension FTPRemote {
    /// Takes over what `other` (the device run's first connection) learned from its listings:
    /// the server's spellings of names (NFD) and the server's clock offset, so an extra
    /// connection of the same device names files exactly as the first one does.
    func learn(from other: FTPRemote) {
        serverNames = other.serverNames
        clockOffset = other.clockOffset
        offsetProbed = other.offsetProbed
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
