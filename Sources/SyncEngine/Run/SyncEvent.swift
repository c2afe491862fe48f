// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

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
    /// The plan is made: how many actions are about to be carried out (an action's `id` in
    /// later events is its place in the plan, from 0), how many of them are transfers
    /// (downloads, uploads), and the bytes those will move.
    case planned(device: String, actions: Int, transfers: Int, bytesToTransfer: UInt64)
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
