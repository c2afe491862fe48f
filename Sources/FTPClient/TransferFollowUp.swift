// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// What comes right after a file's transfer, told to the session before it starts
/// (`FTPSession.announce`), so that its commands go out as soon as the server is done with the
/// data, pipelined behind the transfer's final reply (issue 20): the round trips of a SIZE after
/// a download or an upload and of the next download's EPSV are hidden in the wait for that
/// reply, and the next download's data connection is made before it is asked for.
public struct TransferFollowUp: Sendable {
    /// Ask SIZE of the file once the server is done with its data (RFC 3659 §4): the answer is
    /// kept for the `size` call that follows, which then costs no round trip.
    public var sizeAfter: Bool
    /// After a download: the file the next download (from byte 0) most likely fetches: its EPSV
    /// and RETR are sent ahead, and its data connection made; a call for anything else first
    /// ends that transfer. Ignored after an upload.
    public var next: String?

    /// After an upload: set the file's modification time to this (UTC, whole seconds; MFMT,
    /// else the two-argument MDTM, as `FTPSession.setModificationTime`), answered behind the
    /// transfer's final reply; the `setModificationTime` call for the same file and time then
    /// costs no round trip. Ignored after a download.
    public var setTime: Date?
    /// The bytes the transfer should move (from its offset): the follow-ups go out only when
    /// it moved exactly these (a short one is resumed first: what was sent ahead would be
    /// wasted); nil: whatever it moved.
    public var expectedBytes: UInt64?
    /// Asked when the download's data ended, before `next` is sent: false keeps it back (a run
    /// cap reached or a stop asked for meanwhile: that download will not be made). Nil: always.
    public var nextStillWanted: (@Sendable () -> Bool)?
    /// Ask the server's digest of the file once it is done with the data, the way this session
    /// asks it (`FTPSession.serverHash`; only once the session decided how, after its first):
    /// the `serverHash` call that follows then costs no round trip. For small files: a server
    /// hashes a large one for longer than a reply may take.
    public var hashAfter = false

    /// A follow-up; by default nothing follows.
    public init(
        sizeAfter: Bool = false, next: String? = nil, setTime: Date? = nil, expectedBytes: UInt64? = nil,
        nextStillWanted: (@Sendable () -> Bool)? = nil
    ) {
        self.sizeAfter = sizeAfter
        self.next = next
        self.setTime = setTime
        self.expectedBytes = expectedBytes
        self.nextStillWanted = nextStillWanted
    }

    /// True when nothing is to be sent ahead.
    public var isEmpty: Bool { !sizeAfter && next == nil && setTime == nil && !hashAfter }
}
