// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// A transition of a device the state keeps (`status --events`): it went offline, came back,
/// answered with another identity, had a plan refused by the delete guard, or its clock's
/// offset jumped.
public struct DeviceEvent: Sendable, Hashable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A run could not reach or list the device after a run that did.
        case offline
        /// A run reached the device again after one or more that could not.
        case back
        /// The server answered with another identity than the one recorded.
        case identityChanged = "identity_changed"
        /// The delete guard refused the device's plan (`--max-delete`, or a tree gone).
        case deleteGuard = "delete_guard"
        /// The offset between the device's clock and ours changed by more than the run tolerates.
        case clockJump = "clock_jump"
    }

    /// The device's name.
    public var device: String
    /// When it was seen (UTC).
    public var at: Date
    /// What happened.
    public var kind: Kind
    /// One line saying more (the error, the old and new identity, the offsets); nil for none.
    public var detail: String?

    /// An event from its parts.
    public init(device: String, at: Date, kind: Kind, detail: String?) {
        self.device = device
        self.at = at
        self.kind = kind
        self.detail = detail
    }
}

extension StateStore {
    /// Events kept per device: recording one more drops the oldest.
    public static let eventsKeptPerDevice = 100

    /// Records `event`, then drops what is older than the device's `eventsKeptPerDevice` most
    /// recent events (a crash in between leaves one more, dropped by the next).
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func recordEvent(_ event: DeviceEvent) throws(StoreError) {
        try locked { () throws(StoreError) in
            try connection.query(
                "INSERT INTO device_events (device, at, kind, detail) VALUES (?1, ?2, ?3, ?4)",
                [
                    .text(event.device), .real(event.at.timeIntervalSince1970), .text(event.kind.rawValue),
                    event.detail.map { .text($0) } ?? .null,
                ])
            try connection.query(
                """
                DELETE FROM device_events WHERE device = ?1 AND id <= (
                    SELECT id FROM device_events WHERE device = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2)
                """,
                [.text(event.device), .integer(Int64(StateStore.eventsKeptPerDevice))])
        }
    }

    /// The most recent events, newest first: of `device`, or of every device when nil; at most
    /// `limit` (bounded to 10,000). Kinds this version does not know are left out.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func recentEvents(device: String? = nil, limit: Int = 50) throws(StoreError) -> [DeviceEvent] {
        let bound = Int64(min(max(limit, 0), 10_000))
        return try locked { () throws(StoreError) -> [DeviceEvent] in
            var events: [DeviceEvent] = []
            try connection.query(
                """
                SELECT device, at, kind, detail FROM device_events WHERE ?1 IS NULL OR device = ?1
                ORDER BY id DESC LIMIT ?2
                """,
                [device.map { .text($0) } ?? .null, .integer(bound)]
            ) { row in
                guard let kind = DeviceEvent.Kind(rawValue: row.text(2)) else { return }
                events.append(
                    DeviceEvent(
                        device: row.text(0), at: Date(timeIntervalSince1970: row.real(1)), kind: kind,
                        detail: row.optionalText(3)))
            }
            return events
        }
    }
}
