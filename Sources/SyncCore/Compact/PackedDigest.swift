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

/// Optional digests in compact form: packed where they are hex, the rare others as text.
struct DigestColumn: Sendable, Hashable {
    private var packed: [PackedDigest?] = []
    private var others: [Int: String] = [:]

    mutating func reserve(_ count: Int) { packed.reserveCapacity(packed.count + max(0, count)) }

    mutating func append(_ digest: String?) {
        guard let digest else { return packed.append(nil) }
        if let value = PackedDigest(digest) {
            packed.append(value)
        } else {
            others[packed.count] = digest
            packed.append(nil)
        }
    }

    subscript(position: Int) -> String? {
        packed[position]?.text ?? others[position]
    }
}
