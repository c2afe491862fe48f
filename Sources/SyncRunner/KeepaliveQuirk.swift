import FTPClient
import SyncEngine
import SyncStore
import Synchronization

/// A device whose server misbehaves with NOOP during transfers (`FTPSession.keepaliveOffReason`):
/// kept in the state (`StateStore.setKeepaliveQuirk`), so that later runs send none at once.
/// One per device run; its sessions are watched as they connect.
final class KeepaliveQuirk: Sendable {
    private let store: StateStore?
    private let device: String
    /// The reason an earlier run stored, nil when none.
    let stored: String?
    private let sessions = Mutex<[FTPSession]>([])

    /// Reads what the state knows of `device`.
    init(store: StateStore?, device: String) {
        self.store = store
        self.device = device
        self.stored = (try? store?.keepaliveQuirk(device: device)) ?? nil
    }

    /// Tells a new session of the device what the state knows, and watches what it learns.
    func watch(_ session: FTPSession) {
        if let stored { session.expectNoKeepalive(because: stored) }
        sessions.withLock { $0.append(session) }
    }

    /// After the device's work: stores a reason learned in this run (not when `persist` is
    /// false: a dry run) and notes it in `report`.
    func conclude(_ report: inout DeviceReport, persist: Bool) {
        guard stored == nil else { return }
        let learned = sessions.withLock { sessions in sessions.lazy.compactMap(\.keepaliveOffReason).first }
        sessions.withLock { $0.removeAll() }
        guard let learned else { return }
        if persist { try? store?.setKeepaliveQuirk(learned, device: device) }
        report.note("\(learned): keepalive is off for this device (NOOP no longer sent during transfers)")
    }
}
