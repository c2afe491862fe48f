// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree

/// Runs one closure per device on threads of its own, at most `limit` at a time, and returns
/// the reports in the devices' order. Blocking socket I/O happens on these threads (8 MiB of
/// stack each), never in Swift concurrency's cooperative pool.
public enum DeviceRunner {
    /// `body` of each of `devices`, at most `limit` (at least 1) at a time; blocks until all ended.
    /// - Returns: the results in the order of `devices`.
    public static func runAll<Device: Sendable, Report: Sendable>(
        _ devices: [Device], limit: Int, _ body: @escaping @Sendable (Device) -> Report
    ) -> [Report] {
        let results = LockedSlots<Report>(count: devices.count)
        let slots = DispatchSemaphore(value: max(1, limit))
        let done = DispatchGroup()
        for (index, device) in devices.enumerated() {
            slots.wait()
            done.enter()
            let thread = Thread {
                results.set(index, body(device))
                slots.signal()
                done.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        done.wait()
        return results.values.compactMap { $0 }
    }
}
