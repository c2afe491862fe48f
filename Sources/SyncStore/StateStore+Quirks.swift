// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

extension StateStore {
    /// What a device's server was found doing, kept across runs in its `devices` row.
    enum QuirkColumn: String {
        case resume = "resume_quirk"
        case listing = "listing_quirk"
        case hiddenListing = "hidden_listing_quirk"
        case keepalive = "keepalive_quirk"
        case pipeline = "pipeline_quirk"
        case hashProbe = "hash_probe"
    }

    /// Stores why resumed uploads (APPE, REST + STOR) are not trusted on `device` (e.g.
    /// `REST + STOR kept only the tail`); nil trusts them again. Kept until cleared: later
    /// pushes to the device send whole files (issue 14 item 9).
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func setResumeQuirk(_ quirk: String?, device: String) throws(StoreError) {
        try setQuirk(.resume, quirk, device: device)
    }

    /// Why resumed uploads are not trusted on `device`, nil when they are.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func resumeQuirk(device: String) throws(StoreError) -> String? {
        try quirk(.resume, device: device)
    }

    /// Stores why `device` listed over the control connection (`STAT`: its listing data
    /// connections failed); nil forgets it. A hint for later runs: their first listing tries a
    /// data connection once and goes to STAT at once when that fails (issue 16).
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func setListingQuirk(_ quirk: String?, device: String) throws(StoreError) {
        try setQuirk(.listing, quirk, device: device)
    }

    /// Why `device` listed over the control connection, nil when it lists over data connections.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func listingQuirk(device: String) throws(StoreError) -> String? {
        try quirk(.listing, device: device)
    }

    /// Stores why `device`'s server gets plain `LIST`, not `LIST -a` (it refused `-a` or took
    /// it for a path); nil forgets it. Later runs send plain `LIST` at once (issue 19).
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func setHiddenListingQuirk(_ quirk: String?, device: String) throws(StoreError) {
        try setQuirk(.hiddenListing, quirk, device: device)
    }

    /// Why `device`'s server gets plain `LIST`, nil when it takes `LIST -a`.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func hiddenListingQuirk(device: String) throws(StoreError) -> String? {
        try quirk(.hiddenListing, device: device)
    }

    /// Stores why `device`'s server gets no NOOP during transfers (it answered one with an
    /// error or out of step); nil forgets it. Later runs send none at once (issue 19).
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func setKeepaliveQuirk(_ quirk: String?, device: String) throws(StoreError) {
        try setQuirk(.keepalive, quirk, device: device)
    }

    /// Why `device`'s server gets no NOOP during transfers, nil when it takes them.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func keepaliveQuirk(device: String) throws(StoreError) -> String? {
        try quirk(.keepalive, device: device)
    }

    /// Stores why `device`'s server gets its transfer commands one at a time (it lost or did
    /// not understand a pipelined one); nil forgets it. Later runs do not pipeline (issue 20).
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func setPipelineQuirk(_ quirk: String?, device: String) throws(StoreError) {
        try setQuirk(.pipeline, quirk, device: device)
    }

    /// Why `device`'s server gets its transfer commands one at a time, nil when they are pipelined.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func pipelineQuirk(device: String) throws(StoreError) -> String? {
        try quirk(.pipeline, device: device)
    }

    /// Stores how many connections `device`'s server took before it refused one (421, or a
    /// 530 saying it is full); nil forgets it. Later runs open no more (issue 20).
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func setConnectionLimit(_ limit: Int?, device: String) throws(StoreError) {
        try setDeviceColumn("connection_limit", limit.map { .integer(Int64($0)) } ?? .null, device: device)
    }

    /// How many connections `device`'s server took before it refused one, nil when none was refused.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func connectionLimit(device: String) throws(StoreError) -> Int? {
        try deviceColumn("connection_limit", device: device) { $0.isNull(0) ? nil : Int(clamping: $0.integer(0)) }
    }

    /// Stores what probing `device`'s server for `HASH` found (`FTPSession.hashProbe`: where
    /// FEAT names no hash command); nil forgets it. Later runs take it instead of probing (issue 21).
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func setHashProbe(_ outcome: String?, device: String) throws(StoreError) {
        try setQuirk(.hashProbe, outcome, device: device)
    }

    /// What probing `device`'s server for `HASH` found, nil when it was never probed.
    /// - Throws: `StoreError` when SQLite fails or the store is closed.
    public func hashProbe(device: String) throws(StoreError) -> String? {
        try quirk(.hashProbe, device: device)
    }

    private func setQuirk(_ column: QuirkColumn, _ quirk: String?, device: String) throws(StoreError) {
        try setDeviceColumn(column.rawValue, quirk.map { .text($0) } ?? .null, device: device)
    }

    private func quirk(_ column: QuirkColumn, device: String) throws(StoreError) -> String? {
        try deviceColumn(column.rawValue, device: device) { $0.optionalText(0) }
    }
}
