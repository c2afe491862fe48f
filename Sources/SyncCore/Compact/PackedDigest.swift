// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// A digest of 32 lowercase hex digits (XXH3-128) kept as two integers, 16 bytes instead of a
/// `String` of its own (issue 17: compact entries).
struct PackedDigest: Sendable, Hashable {
    let high: UInt64
    let low: UInt64

    /// The digest of `text`, nil unless it is exactly 32 lowercase hex digits.
    init?(_ text: String) {
        var high: UInt64 = 0
        var low: UInt64 = 0
        var count = 0
        for byte in text.utf8 {
            guard count < 32, let value = PackedDigest.value(of: byte) else { return nil }
            if count < 16 { high = high << 4 | value } else { low = low << 4 | value }
            count += 1
        }
        guard count == 32 else { return nil }
        self.high = high
        self.low = low
    }

    /// The 32 lowercase hex digits.
    var text: String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes = [UInt8](repeating: 0, count: 32)
        for index in 0..<16 {
            bytes[15 - index] = digits[Int((high >> (UInt64(index) * 4)) & 0xf)]
            bytes[31 - index] = digits[Int((low >> (UInt64(index) * 4)) & 0xf)]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func value(of byte: UInt8) -> UInt64? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt64(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt64(byte - UInt8(ascii: "a") + 10)
        default: nil
        }
    }
}

/// One optional digest in compact form: packed when it is hex, as text otherwise.
enum StoredDigest: Sendable, Hashable {
    case none
    case packed(PackedDigest)
    case text(String)

    init(_ digest: String?) {
        guard let digest else {
            self = .none
            return
        }
        self = PackedDigest(digest).map(StoredDigest.packed) ?? .text(digest)
    }

    var text: String? {
        switch self {
        case .none: nil
        case .packed(let value): value.text
        case .text(let text): text
        }
    }
}

/// Optional digests in compact form: packed where they are hex, the rare others as text.
/// The column takes no room until its first digest (a pull's listings and scans have none).
struct DigestColumn: Sendable, Hashable {
    private var count = 0
    /// One per position once a digest came (`count` of them), empty before.
    private var packed: [PackedDigest?] = []
    private var others: [Int: String] = [:]
    private var reserved = 0

    mutating func reserve(_ count: Int) { reserved = max(0, count) }

    mutating func append(_ digest: String?) {
        defer { count += 1 }
        guard let digest else {
            if !packed.isEmpty { packed.append(nil) }
            return
        }
        if let value = PackedDigest(digest) {
            store(value)
        } else {
            others[count] = digest
            if !packed.isEmpty { packed.append(nil) }
        }
    }

    private mutating func store(_ value: PackedDigest) {
        if packed.isEmpty {
            packed.reserveCapacity(max(reserved, count + 1))
            packed.append(contentsOf: repeatElement(nil, count: count))
        }
        packed.append(value)
    }

    /// Adds digest `position` of `other` last.
    mutating func append(_ position: Int, of other: DigestColumn) {
        if let text = other.others[position] {
            others[count] = text
        } else if !other.packed.isEmpty, let value = other.packed[position] {
            store(value)
            count += 1
            return
        }
        if !packed.isEmpty { packed.append(nil) }
        count += 1
    }

    subscript(position: Int) -> String? {
        if !packed.isEmpty, let value = packed[position] { return value.text }
        return others[position]
    }
}
