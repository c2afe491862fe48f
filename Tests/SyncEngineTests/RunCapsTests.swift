// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Synchronization
import Testing

@testable import SyncEngine

/// The bookkeeping of the run caps (`--max-transfer`, `--max-duration`): when a cap counts as
/// reached, which one wins, when the cut comes and with which reason.
struct RunCapsTests {
    /// A clock the test moves and the work the caps scheduled, to run by hand.
    final class Timeline: Sendable {
        let nanoseconds = Atomic<UInt64>(1_000)
        let scheduled = Mutex<[(after: Double, work: @Sendable () -> Void)]>([])

        func advance(seconds: Double) { nanoseconds.add(UInt64(seconds * 1e9), ordering: .relaxed) }

        /// Caps on this timeline under `run`.
        func caps(bytes: UInt64? = nil, seconds: Double? = nil, run: CancellationToken = CancellationToken())
            -> RunCaps?
        {
            RunCaps(
                maxBytes: bytes, maxSeconds: seconds, within: run,
                now: { [self] in nanoseconds.load(ordering: .relaxed) },
                schedule: { [self] after, work in scheduled.withLock { $0.append((after, work)) } })
        }

        /// The delays scheduled so far.
        var delays: [Double] { scheduled.withLock { $0.map(\.after) } }

        /// Runs the work scheduled so far.
        func fire() {
            for work in scheduled.withLock({ $0.map(\.work) }) { work() }
        }
    }

    @Test func noCapIsNoCaps() {
        #expect(Timeline().caps() == nil)
    }

    @Test func theTransferCapIsReachedOnceTheRunMovedThatMany() throws {
        let timeline = Timeline()
        let caps = try #require(timeline.caps(bytes: 1_000))
        caps.add(400)
        caps.add(599)
        #expect(caps.reached == nil)
        #expect(timeline.delays.isEmpty)
        caps.add(1)
        #expect(caps.reached == .maxTransfer)
        #expect(caps.bytesMoved == 1_000)
        // The cut is due the grace after the cap, not before.
        #expect(timeline.delays == [RunCaps.grace])
        #expect(!caps.cancellation.isCancelled)
        caps.add(5_000)
        #expect(timeline.delays == [RunCaps.grace])
        timeline.fire()
        #expect(caps.cancellation.isCancelled)
        #expect(caps.cancellation.interruption == RunInterrupted(cap: .maxTransfer))
        #expect(throws: RunInterrupted(cap: .maxTransfer)) { try caps.cancellation.check() }
    }

    @Test func theDurationCapIsReachedWhenItsTimeHasPassedAndCutsAGraceLater() throws {
        let timeline = Timeline()
        let caps = try #require(timeline.caps(seconds: 60))
        #expect(timeline.delays == [60 + RunCaps.grace])
        timeline.advance(seconds: 59.9)
        #expect(caps.reached == nil)
        timeline.advance(seconds: 0.1)
        #expect(caps.reached == .maxDuration)
        timeline.fire()
        #expect(caps.cancellation.interruption == RunInterrupted(cap: .maxDuration))
    }

    /// Bytes that cross the transfer cap after the duration passed (nobody asked in between)
    /// leave the duration as the cap reached, and schedule no second cut.
    @Test func theCapReachedFirstStays() throws {
        let timeline = Timeline()
        let caps = try #require(timeline.caps(bytes: 100, seconds: 10))
        timeline.advance(seconds: 11)
        caps.add(200)
        #expect(caps.reached == .maxDuration)
        #expect(timeline.delays == [10 + RunCaps.grace])
        let other = try #require(timeline.caps(bytes: 100, seconds: 10))
        other.add(200)
        timeline.advance(seconds: 11)
        #expect(other.reached == .maxTransfer)
    }

    /// SIGINT (the run's token) stops a capped run too, with its own reason; a cap's cut never
    /// cancels the run's token (other runs under it, the signal's exit code).
    @Test func theRunsTokenStopsTheCapsTokenNotTheOtherWay() throws {
        let run = CancellationToken()
        let timeline = Timeline()
        let caps = try #require(timeline.caps(bytes: 1, run: run))
        caps.add(1)
        timeline.fire()
        #expect(caps.cancellation.interruption?.cap == .maxTransfer)
        #expect(!run.isCancelled)

        let signalled = CancellationToken()
        let child = CancellationToken(within: signalled)
        #expect(child.interruption == nil)
        signalled.cancel()
        #expect(child.isCancelled)
        #expect(child.interruption == RunInterrupted())
        // The parent's reason first: the signal decides, even after the cap cut.
        child.cancel(RunInterrupted(cap: .maxDuration))
        #expect(child.interruption == RunInterrupted())
    }

    @Test func theCutSaysWhichCapAndThatTheNextRunResumes() {
        #expect(
            RunInterrupted(cap: .maxDuration).description
                == "cut 10 s after --max-duration was reached; the next run resumes from here")
        #expect(RunInterrupted().description == "interrupted; the next run resumes from here")
    }

    @Test func whatIsLeftCountsTransfersBytesOtherActionsAndCuts() {
        var left = LeftByCap()
        #expect(left.isEmpty)
        left.count(ActionReport(kind: .download, path: "a", bytes: 100, status: .deferred), cut: false)
        left.count(ActionReport(kind: .upload, path: "b", bytes: 50, offset: 10, status: .deferred), cut: true)
        left.count(ActionReport(kind: .deleteRemote, path: "c", status: .deferred), cut: false)
        #expect(left.files == 2 && left.bytes == 150 && left.actions == 3 && left.cut == 1)
        #expect(!left.isEmpty && !left.isUnknown && left.started)
        #expect(LeftByCap.notStarted.isUnknown && !LeftByCap.notStarted.started)
        #expect(LeftByCap.unknown.isUnknown && LeftByCap.unknown.started)
    }
}
