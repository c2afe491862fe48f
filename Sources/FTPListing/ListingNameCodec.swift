// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Turns the bytes of a listed name into a `String` without ever losing them.
///
/// Valid UTF-8 is decoded as is. Each byte that is not part of a valid UTF-8 sequence becomes the
/// private-use scalar U+F700 + byte (U+F780...U+F7FF), so `originalBytes(of:)` gives the exact bytes
/// back. The mapping is ambiguous only for names that already contain U+F780...U+F7FF; the entry's
/// `rawName` always holds the exact bytes, whatever the decoding.
public enum ListingNameCodec {
    /// First scalar of the range invalid bytes are mapped to (U+F700 + byte).
    static let escapeBase: UInt32 = 0xF700

    /// Decodes `bytes` as UTF-8, mapping bytes outside valid sequences reversibly (see the type's note).
    /// - Parameter bytes: a name as the server sent it.
    /// - Returns: the decoded name; never empty when `bytes` is not empty, never containing U+FFFD
    ///   in place of bad bytes.
    public static func decodeUTF8Reversibly<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        // Contiguous bytes (the usual case) are validated in one pass; the generic path below
        // decodes, then compares, which costs several times more per name.
        let validated: String?? = bytes.withContiguousStorageIfAvailable { String(validating: $0, as: UTF8.self) }
        if let validated { return validated ?? mapInvalid(Array(bytes)) }
        let plain = String(decoding: bytes, as: UTF8.self)
        if plain.utf8.elementsEqual(bytes) { return plain }
        return mapInvalid(Array(bytes))
    }

    /// The bytes a name decoded by `decodeUTF8Reversibly` came from: UTF-8, except that scalars
    /// U+F780...U+F7FF become the single bytes 0x80...0xFF again.
    /// - Parameter name: a name produced by `decodeUTF8Reversibly`.
    /// - Returns: the original bytes.
    public static func originalBytes(of name: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(name.utf8.count)
        for scalar in name.unicodeScalars {
            let value = scalar.value
            if value >= escapeBase + 0x80, value <= escapeBase + 0xFF {
                out.append(UInt8(value - escapeBase))
            } else {
                out.append(contentsOf: String(scalar).utf8)
            }
        }
        return out
    }

    private static func mapInvalid(_ bytes: [UInt8]) -> String {
        var scalars = String.UnicodeScalarView()
        var i = 0
        let n = bytes.count
        while i < n {
            let (scalar, length) = decodeOne(bytes, at: i)
            if let scalar {
                scalars.append(scalar)
                i += length
            } else {
                scalars.append(Unicode.Scalar(escapeBase + UInt32(bytes[i]))!)
                i += 1
            }
        }
        return String(scalars)
    }

    /// One well-formed UTF-8 sequence at `i` (no overlongs, no surrogates, at most U+10FFFF), or nil.
    private static func decodeOne(_ b: [UInt8], at i: Int) -> (Unicode.Scalar?, Int) {
        let lead = b[i]
        let length: Int
        var value: UInt32
        var minimum: UInt32
        switch lead {
        case 0x00...0x7F: return (Unicode.Scalar(lead), 1)
        case 0xC2...0xDF: (length, value, minimum) = (2, UInt32(lead & 0x1F), 0x80)
        case 0xE0...0xEF: (length, value, minimum) = (3, UInt32(lead & 0x0F), 0x800)
        case 0xF0...0xF4: (length, value, minimum) = (4, UInt32(lead & 0x07), 0x10000)
        default: return (nil, 1)
        }
        guard i + length <= b.count else { return (nil, 1) }
        for k in 1..<length {
            let c = b[i + k]
            guard c & 0xC0 == 0x80 else { return (nil, 1) }
            value = value << 6 | UInt32(c & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return (nil, 1) }
        return (scalar, length)
    }
}
