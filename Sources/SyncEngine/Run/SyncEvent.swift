import Foundation
import SyncCore

/// What a device's run is doing, told as it happens, for progress displays and logs.
///
/// For one device the events come in this order: `deviceStarted`; `planned` (unless the device
/// could not be reached or listed); for each action carried out `actionStarted`, any number of
/// `transferProgress` (transfers only), `actionFinished`; and last `deviceFinished`. A dry run
/// carries nothing out, so it sends no action events. Events of different devices interleave.
public enum SyncEvent: Sendable {
    /// The device's run began (before connecting).
    case deviceStarted(device: String)
    /// The plan is made: the actions about to be carried out (in order; an action's `id` in
    /// later events is its index here) and the bytes the transfers among them will move.
    case planned(device: String, actions: [Action], bytesToTransfer: UInt64)
    /// The action with index `id` in the plan is being carried out.
    case actionStarted(device: String, id: Int, action: Action)
    /// A transfer moved data: `bytesDone` counts from the start of the file, so it includes the
    /// offset a resumed transfer started at; `bytesTotal` is the file's size (nil when the
    /// listing gave none). Sent once at the start, then when 64 KiB more have moved or 100 ms
    /// have passed since the last one, and at the end of an upload's data.
    case transferProgress(device: String, id: Int, bytesDone: UInt64, bytesTotal: UInt64?)
    /// The action with index `id` ended (done or failed), as the report shows it.
    case actionFinished(device: String, id: Int, report: ActionReport)
    /// The device's run ended; `report` is what `run()` returns.
    case deviceFinished(device: String, report: DeviceReport)
}

/// Receives the events of a run. Called on the threads that carry out the run (one per device,
/// several at once), so it must be quick and thread-safe; nil means no events are made at all.
public typealias SyncEventHandler = @Sendable (SyncEvent) -> Void

/// Turns the chunks of one transfer into throttled `transferProgress` events: one at the start
/// (the resume offset), then one when `step` bytes have moved or `interval` seconds have passed
/// since the last event, so a display follows bursts and trickles alike and a fast transfer
/// does not pay for an event per small chunk.
final class TransferMeter {
    private let device: String
    private let id: Int
    private let total: UInt64?
    private let handler: SyncEventHandler
    private let interval: UInt64
    private let step: UInt64
    private let now: () -> UInt64
    private var done: UInt64
    private var lastSent: UInt64
    private var doneWhenSent: UInt64

    /// - Parameters:
    ///   - start: the bytes already there (the resume offset).
    ///   - total: the file's size in bytes, when known.
    ///   - step: bytes after which an event is sent, whatever the time.
    ///   - interval: seconds after which an event is sent, whatever the bytes.
    ///   - now: a monotonic clock in nanoseconds.
    init(
        device: String, id: Int, start: UInt64, total: UInt64?, handler: @escaping SyncEventHandler,
        step: UInt64 = 65_536, interval: Double = 0.1,
        now: @escaping () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }
    ) {
        self.device = device
        self.id = id
        self.total = total
        self.handler = handler
        self.interval = UInt64(interval * 1e9)
        self.step = step
        self.now = now
        done = start
        doneWhenSent = start
        lastSent = now()
        handler(.transferProgress(device: device, id: id, bytesDone: start, bytesTotal: total))
    }

    /// Counts `count` more bytes moved and sends an event when `step` bytes or `interval` have
    /// passed since the last; 0 (the end of the data) sends the count not yet sent.
    func add(_ count: Int) {
        done = Saturating.add(done, UInt64(max(0, count)))
        let time = now()
        let due = Saturating.subtract(done, doneWhenSent) >= step || time &- lastSent >= interval || count == 0
        guard due, done != doneWhenSent else { return }
        lastSent = time
        doneWhenSent = done
        handler(.transferProgress(device: device, id: id, bytesDone: done, bytesTotal: total))
    }

    /// The bytes counted so far, from the start of the file.
    var bytesDone: UInt64 { done }
}

extension Plan {
    /// Bytes the transfers of this plan move over the network (resumed ones from their offset).
    var bytesToTransfer: UInt64 {
        Saturating.sum(actions.lazy.filter { $0.kind == .download || $0.kind == .upload }.map(\.bytes))
    }
}
