// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@testable import SyncEngine

/// Throttling of transfer progress events, with the clock as a parameter.
@Suite struct TransferMeterTests {
    /// Collects events from the meter's thread (here: the test's own).
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [(UInt64, UInt64?)] = []

        func record(_ event: SyncEvent) {
            guard case .transferProgress(let device, let id, let done, let total) = event else { return }
            #expect(device == "cam" && id == 7)
            lock.lock()
            events.append((done, total))
            lock.unlock()
        }

        var dones: [UInt64] {
            lock.lock()
            defer { lock.unlock() }
            return events.map(\.0)
        }
    }

    /// Steps of (milliseconds since the start, bytes added) → the `bytesDone` of each event.
    @Test(
        arguments: [
            // A burst: an event per 64 KiB, whatever the time.
            ([(10, 40_000), (20, 40_000), (30, 40_000), (40, 65_536)], [1000, 81_000, 186_536] as [UInt64]),
            // A trickle: an event per tenth of a second, whatever the bytes.
            ([(100, 10), (150, 10), (200, 10), (350, 5), (360, 1)], [1000, 1010, 1030, 1035]),
            // The end of the data (0) sends what is not sent yet, once.
            ([(10, 500), (20, 0), (30, 0)], [1000, 1500]),
            // Nothing new: no event, however long it took.
            ([(500, 0), (900, 0)], [1000]),
        ] as [([(UInt64, Int)], [UInt64])])
    func eventsFollowBurstsAndTrickles(steps: [(UInt64, Int)], expected: [UInt64]) {
        let recorder = Recorder()
        let clock = Clock()
        let meter = TransferMeter(
            device: "cam", id: 7, start: 1000, total: 5000, handler: { recorder.record($0) }, now: { clock.now })
        for (milliseconds, bytes) in steps {
            clock.now = milliseconds * 1_000_000
            meter.add(bytes)
        }
        #expect(recorder.dones == expected)
        #expect(meter.bytesDone == 1000 + steps.reduce(0) { $0 + UInt64($1.1) })
    }

    /// A settable monotonic clock in nanoseconds.
    final class Clock: @unchecked Sendable {
        var now: UInt64 = 0
    }
}
