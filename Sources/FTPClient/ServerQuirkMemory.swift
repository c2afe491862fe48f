import Foundation

/// A set of servers (`host:port`) with a quirk learnt on one connection, remembered for the
/// process (one run) so that later connections avoid it at once.
final class ServerQuirkMemory: @unchecked Sendable {
    private let lock = NSLock()
    private var servers: Set<String> = []

    func contains(_ server: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return servers.contains(server)
    }

    func insert(_ server: String) {
        lock.lock()
        servers.insert(server)
        lock.unlock()
    }
}

/// Servers whose FEAT reply did not end within its bounds: later connections skip FEAT.
enum UnendingFeatureReplies {
    static let shared = ServerQuirkMemory()
}

/// Servers whose TLS 1.3 session tickets ran out for data connections: later connections use TLS 1.2.
enum TLSResumptionFallback {
    static let shared = ServerQuirkMemory()
}
