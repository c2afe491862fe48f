// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// What a listing says an entry is.
public enum EntryType: String, Sendable, Hashable, Codable {
    /// A regular file: the only type that is ever transferred.
    case file
    /// A folder (MLSD `dir`, a LIST line starting with `d`, DOS `<DIR>`).
    case dir
    /// A symbolic link; never followed.
    case link
    /// Anything else: devices, sockets, pipes, unknown MLSD types.
    case other
}

/// How finely a listed modification time is known.
///
/// A LIST line with a year gives a day; with a time of day it gives a minute; MLSD `modify`
/// (RFC 3659 §2.3) gives a second or better.
public enum TimePrecision: Int, Sendable, Hashable, Comparable, Codable {
    case day = 0
    case minute = 1
    case second = 2
    case subsecond = 3

    public static func < (lhs: TimePrecision, rhs: TimePrecision) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A modification time as a listing gave it: an instant (UTC) and how finely it is known.
public struct ListedTime: Sendable, Hashable {
    /// The instant; for LIST lines, the server-local wall-clock time read in the device's time zone.
    public var date: Date
    /// How finely the listing gave the time.
    public var precision: TimePrecision

    public init(date: Date, precision: TimePrecision) {
        self.date = date
        self.precision = precision
    }
}

/// One entry of a directory listing (MLSD, MLST or LIST), as parsed.
///
/// Stored properties are ordered for a compact layout (a million entries stay small).
public struct ListingEntry: Sendable, Hashable {
    /// The entry's name, decoded (UTF-8 unless the device's encoding says otherwise).
    /// Changing it leaves `rawName` as it was.
    public var name: String {
        didSet {
            if storedRawName == nil && name != oldValue { storedRawName = Array(oldValue.utf8) }
        }
    }
    /// The name exactly as the server sent it, for commands that refer to the entry.
    public var rawName: [UInt8] {
        get { storedRawName ?? Array(name.utf8) }
        set { storedRawName = name.utf8.elementsEqual(newValue) ? nil : newValue }
    }
    /// The raw bytes when they differ from the UTF-8 of `name`, else nil (saves an array per entry).
    private var storedRawName: [UInt8]?
    /// MLSD facts, fact names lowercased (RFC 3659 §7), empty for LIST entries.
    public var facts: [String: String]
    /// A symbolic link's target, when the listing names it.
    public var target: String?
    /// UNIX permission string as listed (`rw-r--r--`), when given.
    public var mode: String?
    /// The owner, as listed (LIST column, MLSD `UNIX.ownername`/`UNIX.owner`/`UNIX.uid`).
    public var owner: String?
    /// The group, as listed; may contain spaces (`Domain Users`); nil when the line has no group column.
    public var group: String?
    /// Size in bytes, or nil when the listing gives none (folders, links, devices).
    public var size: UInt64?
    /// What the entry is.
    public var type: EntryType
    /// False when the listing gave only an approximate size: `1.2K` from embedded servers, or a
    /// size above 2^31 that a 32-bit server printed negative (`-1294967296`, read as value + 2^32,
    /// to be confirmed with SIZE, RFC 3659 §4).
    public var sizeIsExact: Bool
    /// True when a LIST line had no year and the year was inferred from the clock.
    public var yearInferred: Bool
    /// Modification time, or nil when the listing gives none.
    public var modified: ListedTime?

    public init(
        name: String, rawName: [UInt8]? = nil, type: EntryType, size: UInt64? = nil, sizeIsExact: Bool = true,
        modified: ListedTime? = nil, target: String? = nil, mode: String? = nil, owner: String? = nil,
        group: String? = nil, yearInferred: Bool = false, facts: [String: String] = [:]
    ) {
        self.name = name
        if let rawName, !name.utf8.elementsEqual(rawName) {
            self.storedRawName = rawName
        } else {
            self.storedRawName = nil
        }
        self.type = type
        self.size = size
        self.sizeIsExact = sizeIsExact
        self.modified = modified
        self.target = target
        self.mode = mode
        self.owner = owner
        self.group = group
        self.yearInferred = yearInferred
        self.facts = facts
    }
}
