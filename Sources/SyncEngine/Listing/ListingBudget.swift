// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// A cap on what listings may hold in memory, for one device or for a whole run: the bytes of
/// listings being received at the same moment (each single listing is capped at 256 MiB by the
/// FTP client as well), and the entries listed and not yet planned (those listed ahead of a
/// walk and the folder being planned: a walk gives each folder's back when it moves on, so a
/// tree of any size fits; issue 17). A device's budget draws on the run's too, so memory stays
/// bounded whatever every device sends, however many list at once.
///
/// Thread-safe: the connections of a device list in parallel, and devices run in parallel.
/// Once a device's budget (one with a parent) is exceeded, its own cap or the run's, it stays
/// failed (`failure`) and refuses every later reservation, so the device's listing ends with
/// that one error; the run's budget itself only refuses what would go over it, so the other
/// devices go on once that device's listings are freed.
///
/// The defaults (`Limits.standard`) can be lowered for tests with the environment variable
/// `FTPSYNC_LISTING_LIMITS=DEVICE_BYTES:DEVICE_ENTRIES:RUN_BYTES:RUN_ENTRIES` (four decimal
/// numbers; read by the command line, see `Limits.fromEnvironment(_:)`).
public final class ListingBudget: @unchecked Sendable {
    /// The caps of one budget.
    public struct Limits: Sendable, Equatable {
        /// Bytes of listings being received at once.
        public var bytesInFlight: Int
        /// Entries listed and not yet planned, at once.
        public var entries: Int

        public init(bytesInFlight: Int, entries: Int) {
            self.bytesInFlight = bytesInFlight
            self.entries = entries
        }

        /// A device: 384 MiB of listings at once, 5 million entries held.
        public static let device = Limits(bytesInFlight: 384 << 20, entries: 5_000_000)
        /// A run: 768 MiB of listings at once, 20 million entries held.
        public static let run = Limits(bytesInFlight: 768 << 20, entries: 20_000_000)

        /// The (device, run) limits from `FTPSYNC_LISTING_LIMITS` in `environment`, or the
        /// defaults when it is unset or not four positive numbers separated by `:`.
        public static func fromEnvironment(_ environment: [String: String]) -> (device: Limits, run: Limits) {
            let numbers = (environment["FTPSYNC_LISTING_LIMITS"] ?? "").split(separator: ":").compactMap { Int($0) }
            guard numbers.count == 4, numbers.allSatisfy({ $0 > 0 }) else { return (.device, .run) }
            return (
                Limits(bytesInFlight: numbers[0], entries: numbers[1]),
                Limits(bytesInFlight: numbers[2], entries: numbers[3])
            )
        }
    }

    /// Who the budget is for, as the error names it: `device cam`, `the run`.
    public let owner: String
    public let limits: Limits
    private let parent: ListingBudget?
    private let lock = NSLock()
    private var bytes = 0
    private var entries = 0
    private var failed: ListingBudgetExceeded?

    /// - Parameters:
    ///   - owner: how errors name it (`device cam`).
    ///   - parent: the run's budget, charged as well; nil for the run's own.
    public init(owner: String, limits: Limits, parent: ListingBudget? = nil) {
        self.owner = owner
        self.limits = limits
        self.parent = parent
    }

    /// The first cap this budget met, if any (its own or its parent's); always nil for a
    /// budget without a parent (the run's).
    public var failure: ListingBudgetExceeded? {
        lock.lock()
        defer { lock.unlock() }
        return failed
    }

    /// Takes `count` more bytes of the listing of `path` being received.
    /// - Throws: `ListingBudgetExceeded` when this budget or its parent would go over its cap
    ///   of bytes in flight (nothing is taken then), or either failed before.
    public func reserve(_ count: Int, listing path: String) throws(ListingBudgetExceeded) {
        try take(count, of: \.bytes, cap: limits.bytesInFlight, unit: "bytes of listings at once", path: path)
        do {
            try parent?.reserve(count, listing: path)
        } catch {
            release(count)
            fail(error)
            throw error
        }
    }

    /// Gives back bytes taken with `reserve` (the listing was parsed or abandoned).
    public func release(_ count: Int) {
        lock.lock()
        bytes = max(0, bytes - count)
        lock.unlock()
        parent?.release(count)
    }

    /// Counts `count` entries listed in `path`, held until `release(entries:)`.
    /// - Throws: `ListingBudgetExceeded` when the entries held go over this budget's or its
    ///   parent's cap (nothing is counted then).
    public func count(entries count: Int, listing path: String) throws(ListingBudgetExceeded) {
        try take(count, of: \.entries, cap: limits.entries, unit: "entries held at once", path: path)
        do {
            try parent?.count(entries: count, listing: path)
        } catch {
            lock.lock()
            entries = max(0, entries - max(0, count))
            lock.unlock()
            fail(error)
            throw error
        }
    }

    /// Gives back entries counted with `count(entries:listing:)` (their folder was planned).
    public func release(entries count: Int) {
        lock.lock()
        entries = max(0, entries - max(0, count))
        lock.unlock()
        parent?.release(entries: count)
    }

    /// Remembers the first cap met (a device's budget only).
    private func fail(_ error: ListingBudgetExceeded) {
        guard parent != nil else { return }
        lock.lock()
        if failed == nil { failed = error }
        lock.unlock()
    }

    private func take(
        _ count: Int, of field: ReferenceWritableKeyPath<ListingBudget, Int>, cap: Int, unit: String, path: String
    ) throws(ListingBudgetExceeded) {
        lock.lock()
        defer { lock.unlock() }
        if let failed { throw failed }
        let (total, overflow) = self[keyPath: field].addingReportingOverflow(max(0, count))
        guard !overflow, total <= cap else {
            let error = ListingBudgetExceeded(path: path, limit: cap, unit: unit, owner: owner)
            if parent != nil { failed = error }
            throw error
        }
        self[keyPath: field] = total
    }
}

/// Listings went over a `ListingBudget`: the device's listing stops with this one error.
public struct ListingBudgetExceeded: Error, CustomStringConvertible, Sendable {
    /// The folder whose listing went over.
    public var path: String
    public var limit: Int
    /// What the limit counts: `entries`, `bytes of listings at once`.
    public var unit: String
    /// `device cam`, `the run`.
    public var owner: String

    public var description: String {
        "listing of '\(path)' exceeded \(limit) \(unit) in total for \(owner) (a listing that never ends?)"
    }
}
