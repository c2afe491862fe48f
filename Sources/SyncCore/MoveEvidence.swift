// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// A file the device may have moved, as the pull planner proposes it: `to` is new on the device
/// (no record, absent here) with the size and modification time `from` had at the last sync,
/// `from` is gone from the device and unchanged here, and neither has another such partner.
///
/// Size and time only propose a move; they never prove one (a camera without a clock writes
/// clips of one size, all dated 2000-01-01). The engine checks each candidate's content
/// (`MoveEvidence`) before the planner turns it into a `rename_local`.
public struct MoveCandidate: Sendable, Hashable, CustomStringConvertible {
    /// The local path whose copy would be moved (gone from the device).
    public var from: RelativePath
    /// The device's new path.
    public var to: RelativePath
    /// Size in bytes of both files.
    public var size: UInt64
    /// True when the time the two share is a default (`DefaultTimes`): before 2001, or the exact
    /// time of several files of the listing. Shown in notes; it never counts as evidence.
    public var defaultTime: Bool

    /// A candidate from its paths, size (bytes) and whether its time is a default.
    public init(from: RelativePath, to: RelativePath, size: UInt64, defaultTime: Bool) {
        self.from = from
        self.to = to
        self.size = size
        self.defaultTime = defaultTime
    }

    /// `FROM -> TO`, for notes and test output.
    public var description: String { "\(from) -> \(to)" }
}

/// What the engine found out about the planner's move candidates: the ones whose content is
/// proven the same (the server's hash of `to` equals the hash of the local `from`, or the sampled
/// ranges of `SampledRanges` are byte-equal), and why each other one is not.
///
/// Given back to `PullPlanner.plan(…, evidence:)`: only a confirmed candidate becomes a
/// `rename_local`; any other is a download of the new path, and the old local file stays (it is
/// deleted only with `--delete`, through the trash).
public struct MoveEvidence: Sendable {
    /// Candidates proven to hold the same content on both sides.
    public var confirmed: Set<MoveCandidate>
    /// Why a candidate is not confirmed (one line each: `the server's SHA-256 differs`, `REST refused`).
    public var findings: [MoveCandidate: String]

    /// - Parameters:
    ///   - confirmed: candidates proven the same.
    ///   - findings: for candidates not confirmed, why.
    public init(confirmed: Set<MoveCandidate> = [], findings: [MoveCandidate: String] = [:]) {
        self.confirmed = confirmed
        self.findings = findings
    }

    /// No candidate checked: every candidate is planned as a download.
    public static let none = MoveEvidence()
}

/// The byte ranges of a file compared to tell whether a device file and a local file hold the
/// same content when the server offers no hash: the head, the middle and the tail, `length`
/// bytes each; a file of at most three lengths is compared whole (one range).
public enum SampledRanges {
    /// Bytes per sampled range (4 KiB).
    public static let length: UInt64 = 4096

    /// One sampled range: `count` bytes from byte `offset`.
    public struct Range: Sendable, Hashable {
        /// The first byte of the range (0 = the file's first byte).
        public var offset: UInt64
        /// Bytes in the range.
        public var count: UInt64
    }

    /// The ranges to compare of a file of `size` bytes, in file order, within the file;
    /// empty for an empty file.
    /// - Parameter size: the file's size in bytes (any value: no arithmetic traps).
    public static func ranges(size: UInt64, length: UInt64 = length) -> [Range] {
        guard size > 0 else { return [] }
        let length = max(length, 1)
        let (triple, overflow) = length.multipliedReportingOverflow(by: 3)
        if overflow || size <= triple { return [Range(offset: 0, count: size)] }
        let middle = size / 2 - length / 2
        return [
            Range(offset: 0, count: length), Range(offset: middle, count: length),
            Range(offset: size - length, count: length),
        ]
    }
}

/// Times of a listing that are clearly a default, not when a file was written: before
/// 2001-01-01 (a device whose clock was never set), or one exact time shared by at least
/// `sharedBy` files (a device that stamps everything alike). Such a time never makes two files
/// look like one.
public struct DefaultTimes: Sendable {
    /// 2001-01-01T00:00:00Z, in seconds since 1970.
    public static let cutoff: Double = 978_307_200
    /// How many files of one listing sharing one exact time make it a default.
    public static let sharedBy = 3
    private let shared: Set<Double>

    /// Counts the times of the files of `listing`.
    public init(_ listing: Snapshot) {
        var counts: [Double: Int] = [:]
        for entry in listing.entries where entry.kind == .file {
            if let seconds = entry.modified?.seconds { counts[seconds, default: 0] += 1 }
        }
        self.init(counts: counts)
    }

    /// The default times of a listing whose files' times (seconds) are counted in `counts`.
    public init(counts: [Double: Int]) {
        shared = Set(counts.filter { $0.value >= Self.sharedBy }.keys)
    }

    /// True when `time` is a default (see the type).
    public func isDefault(_ time: FileTime) -> Bool {
        time.seconds < Self.cutoff || shared.contains(time.seconds)
    }
}
