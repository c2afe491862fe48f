// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@testable import SyncEngine

/// What a run cap leaves of a run of transfers handed out to several connections: always the
/// last ones in their order (issue 19: with two connections and `--max-transfer`, a transfer
/// taken ahead by a busy connection was left while a later one, handed out after it, had run).
@Suite struct TransferWindowCapTests {
    private static func window(_ count: Int) -> TransferWindow {
        let window = TransferWindow()
        for index in 0..<count { window.add(action(.download, "f\(index)", bytes: 1), id: index) }
        window.close()
        return window
    }

    /// Connection A holds turns 0 and 1, B turns 2 and 3 (each takes one ahead); A's second
    /// transfer and its third (turn 4) start before the cap, B's turn 3 comes after it: it still
    /// starts, being handed out before turn 4; B's and A's next ones do not.
    @Test func aTransferHandedOutBeforeOneThatStartedStillStartsAfterTheCap() throws {
        let window = Self.window(6)
        let turns = (0..<5).compactMap { _ in window.take() }
        #expect(turns.map(\.number) == [0, 1, 2, 3, 4])
        #expect(turns.map(\.id) == [0, 1, 2, 3, 4])
        var reached: RunCap?
        for number in [0, 2, 1, 4] { #expect(turns[number].capStopping { reached } == nil) }
        reached = .maxTransfer
        #expect(turns[3].capStopping { reached } == nil)
        let last = try #require(window.takeAhead() ?? window.take())
        #expect(last.number == 5)
        #expect(last.capStopping { reached } == .maxTransfer)
    }

    /// In the order they were handed out, nothing after the cap starts.
    @Test func inTurnNothingStartsAfterTheCap() {
        let window = Self.window(3)
        let turns = (0..<3).compactMap { _ in window.take() }
        #expect(turns[0].capStopping { nil } == nil)
        #expect(turns[1].capStopping { .maxDuration } == .maxDuration)
        #expect(turns[2].capStopping { .maxDuration } == .maxDuration)
    }
}
