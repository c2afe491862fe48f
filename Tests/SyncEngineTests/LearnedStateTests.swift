// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import RemoteTestSupport
import Testing

@testable import SyncEngine

/// What connections learn of the server and hand to each other.
struct LearnedStateTests {
    @Test func absorbingKeepsOurSpellingsAndTakesAMissingClockOffset() {
        var mine = LearnedState()
        mine.remember(spelling: "/Cafe\u{301}", of: "/Café")
        var theirs = LearnedState()
        theirs.remember(spelling: "/other", of: "/Café")
        theirs.remember(spelling: "/Ne\u{301}", of: "/Né")
        theirs.clockOffset = 3600
        mine.absorb(theirs)
        #expect(mine.spelling(of: "/Café") == "/Cafe\u{301}")
        #expect(mine.spelling(of: "/Né") == "/Ne\u{301}")
        #expect(mine.clockOffset == 3600)
    }

    /// An extra connection that had to list with STAT tells the first one (issue 16).
    @Test func absorbingTakesAReasonToListOverTheControlConnection() {
        var mine = LearnedState()
        var theirs = LearnedState()
        theirs.controlListing = "listing data connections fail (425 Can't open data connection)"
        mine.absorb(theirs)
        #expect(mine.controlListing == theirs.controlListing)
        var other = LearnedState()
        other.controlListing = "another reason"
        mine.absorb(other)
        #expect(mine.controlListing == theirs.controlListing)
    }

    @Test func aSiblingStartsWithWhatTheFirstConnectionLearned() throws {
        let server = MemoryServer()
        let first = try ResilientRemote.open(
            policy: RetryPolicy(retries: 0), cancellation: CancellationToken(), connect: server.connect)
        var learned = LearnedState()
        learned.remember(spelling: "/A\u{30A}", of: "/Å")
        first.learned = learned
        let sibling = try openSibling(of: first, server.connect)
        #expect(sibling.learned.spelling(of: "/Å") == "/A\u{30A}")
        #expect(server.connects == 2)
    }
}
