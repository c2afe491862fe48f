// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Synchronization

/// Bytes moved over data connections by one executor's transfers, whatever came of them (a
/// transfer cut or failed moved bytes too): the bytes of its actions are told from it.
final class ByteTally: Sendable {
    private let count = Atomic<UInt64>(0)

    /// Counts `bytes` more.
    func add(_ bytes: UInt64) { count.add(bytes, ordering: .relaxed) }

    /// The bytes counted so far.
    var value: UInt64 { count.load(ordering: .relaxed) }
}

/// Turns the chunks of one transfer into throttled `transferProgress` events: one at the start
/// (the resume offset), then one when `step` bytes have moved or `interval` seconds have passed
/// since the last event, so a display follows bursts and trickles alike and a fast transfer
/// does not pay for an event per small chunk. Every chunk also counts against the run's caps
/// (`RunCaps.add`), events or not.
final class TransferMeter {
    private let device: String
    private let id: Int
    private let total: UInt64?
    private let handler: SyncEventHandler?
    private let caps: RunCaps?
    private let tally: ByteTally?
    private let interval: UInt64
    private let step: UInt64
    private let now: () -> UInt64
    private var done: UInt64
    private var lastSent: UInt64
    private var doneWhenSent: UInt64

    /// - Parameters:
    ///   - start: the bytes already there (the resume offset).
    ///   - total: the file's size in bytes, when known.
    ///   - handler: told the progress events; nil for none.
    ///   - caps: the run's caps, told the bytes each chunk moves; nil for none.
    ///   - tally: the executor's count of bytes moved, told each chunk too; nil for none.
    ///   - step: bytes after which an event is sent, whatever the time.
    ///   - interval: seconds after which an event is sent, whatever the bytes.
    ///   - now: a monotonic clock in nanoseconds.
    init(
        device: String, id: Int, start: UInt64, total: UInt64?, handler: SyncEventHandler?, caps: RunCaps? = nil,
        tally: ByteTally? = nil, step: UInt64 = 65_536, interval: Double = 0.1,
        now: @escaping () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }
    ) {
        self.device = device
        self.id = id
        self.total = total
        self.handler = handler
        self.caps = caps
        self.tally = tally
        self.interval = UInt64(interval * 1e9)
        self.step = step
        self.now = now
        done = start
        doneWhenSent = start
        lastSent = now()
        handler?(.transferProgress(device: device, id: id, bytesDone: start, bytesTotal: total))
    }

    /// Counts `count` more bytes moved and sends an event when `step` bytes or `interval` have
    /// passed since the last; 0 (the end of the data) sends the count not yet sent.
    func add(_ count: Int) {
        let moved = UInt64(max(0, count))
        done = Saturating.add(done, moved)
        caps?.add(moved)
        tally?.add(moved)
        guard let handler else { return }
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
