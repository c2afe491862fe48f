// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import FTPListing
import Foundation
import SyncStore

/// The transitions one device run saw (`DeviceEvent`), kept for the state at the run's end:
/// whether the device was reached (its first connection logged in and its root was listed),
/// and the identity, delete-guard and clock events noted on the way. A real run records them
/// (`record(into:device:at:error:)`); a dry run records nothing.
///
/// Went offline: a run that could not reach the device, when the last reach event recorded is
/// not already `offline` (a first run that cannot connect is one too). Came back: the first
/// run that reached it after that.
final class DeviceTransitions {
    /// True once the device was reached, false when it could not be (connect, log in or list),
    /// nil when the run did not get to tell (interrupted, or stopped by a local error first).
    var reached: Bool?
    /// Identity, delete-guard and clock events, in the order noted.
    private(set) var noted: [(kind: DeviceEvent.Kind, detail: String)] = []

    /// Notes an event of this run.
    func note(_ kind: DeviceEvent.Kind, _ detail: String) {
        noted.append((kind, detail))
    }

    /// True when an event of `kind` was noted.
    func contains(_ kind: DeviceEvent.Kind) -> Bool { noted.contains { $0.kind == kind } }

    /// Whether `error`, thrown while connecting or listing the device, says it could not be
    /// reached (a server's or a connection's error): nil when it says nothing of the device
    /// (interrupted, a local or state error).
    static func reached(after error: Error) -> Bool? {
        error is FTPError ? false : nil
    }

    /// The reach event of a run that did (`reached` true) or did not reach the device, given
    /// the last reach event recorded (`offline` or `back`, nil for none); nil when nothing changed.
    static func reachEvent(reached: Bool, last: DeviceEvent?, error: String?) -> (DeviceEvent.Kind, String)? {
        let offline = last?.kind == .offline
        if reached {
            guard offline, let last else { return nil }
            return (.back, "reached again; offline since \(UTCFields(last.at).iso8601)")
        }
        if offline { return nil }
        return (.offline, error ?? "could not be reached")
    }

    /// Records this run's events for `device` at `at`: the reach event first (from the last one
    /// the state holds), then the noted ones. `error` is the run's error, the detail of
    /// `offline`. A state that cannot be read or written loses the events, nothing else.
    func record(into store: StateStore?, device: String, at: Date, error: String?) {
        guard let store else { return }
        var events: [(DeviceEvent.Kind, String)] = []
        if let reached {
            let recent = (try? store.recentEvents(device: device, limit: StateStore.eventsKeptPerDevice)) ?? []
            let last = recent.first { $0.kind == .offline || $0.kind == .back }
            if let event = Self.reachEvent(reached: reached, last: last, error: error) { events.append(event) }
        }
        events += noted.map { ($0.kind, $0.detail) }
        for (kind, detail) in events {
            try? store.recordEvent(DeviceEvent(device: device, at: at, kind: kind, detail: Self.bounded(detail)))
        }
    }

    /// Characters of an event's detail kept in the state.
    static let detailLimit = 1_000

    /// `detail` on one line, at most `detailLimit` characters.
    private static func bounded(_ detail: String) -> String {
        let line = detail.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count > detailLimit ? String(line.prefix(detailLimit - 1)) + "…" : line
    }
}
