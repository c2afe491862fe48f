// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPListing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Converts path names between Swift strings and the bytes a server uses for file names:
/// UTF-8 (RFC 2640) or a legacy encoding (gbk, gb18030, latin1, shift_jis, ...) via iconv(3).
public struct NameCodec: Sendable {
    /// The encoding name as configured, or nil for UTF-8.
    public let encoding: String?

    /// The UTF-8 codec (no conversion; RFC 2640).
    public static let utf8 = NameCodec()

    private init() { self.encoding = nil }

    /// Creates a codec for `encoding`; nil, "utf-8" and "utf8" mean UTF-8 (no conversion).
    /// - Throws: `FTPError.invalidName` when iconv does not know the encoding.
    public init(encoding: String?) throws(FTPError) {
        if let name = encoding, !["utf-8", "utf8"].contains(name.lowercased()) {
            let descriptor = iconv_open(name, "UTF-8")
            guard Int(bitPattern: descriptor) != -1 else {
                throw .invalidName(name: name, reason: "unknown file-name encoding (see `iconv -l`)")
            }
            iconv_close(descriptor)
            self.encoding = name
        } else {
            self.encoding = nil
        }
    }

    /// The bytes to send for `name`. Scalars U+F780...U+F7FF stand for bytes a listing could not
    /// decode (see `ListingNameCodec`) and are sent as those single bytes again, so a name that
    /// came from a listing always reaches the server byte-exact.
    /// - Throws: `FTPError.invalidName` when `name` contains CR, LF or NUL (they would end or
    ///   corrupt the command line, RFC 959 §4.1.3) or a character the encoding cannot hold.
    public func encode(_ name: String) throws(FTPError) -> [UInt8] {
        let utf8 = Array(name.utf8)
        if utf8.contains(where: { $0 == 0 || $0 == 10 || $0 == 13 }) {
            throw .invalidName(name: name, reason: "it contains CR, LF or NUL")
        }
        let hasEscapes = name.unicodeScalars.contains { Self.escapedByte($0) != nil }
        if encoding == nil && !hasEscapes { return utf8 }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var run = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            if let byte = Self.escapedByte(scalar) {
                out += try encodeRun(run, whole: name)
                run.removeAll()
                out.append(byte)
            } else {
                run.append(scalar)
            }
        }
        out += try encodeRun(run, whole: name)
        return out
    }

    /// One run of ordinary scalars in the encoding.
    private func encodeRun(_ run: String.UnicodeScalarView, whole name: String) throws(FTPError) -> [UInt8] {
        let utf8 = Array(String(run).utf8)
        guard let encoding, !utf8.isEmpty else { return utf8 }
        guard let bytes = Self.convert(utf8, from: "UTF-8", to: encoding) else {
            throw .invalidName(name: name, reason: "it has characters that \(encoding) cannot represent")
        }
        return bytes
    }

    /// The byte a private-use escape scalar (U+F780...U+F7FF) stands for, or nil.
    private static func escapedByte(_ scalar: Unicode.Scalar) -> UInt8? {
        let value = scalar.value
        guard value >= 0xF780, value <= 0xF7FF else { return nil }
        return UInt8(value - 0xF700)
    }

    /// The name that `bytes` stand for. Bytes that are not valid in the encoding become the
    /// private-use scalars U+F700 + byte (as `ListingNameCodec` does for UTF-8), so the name is
    /// never lost: `encode` turns them back into the same bytes, and a local file name made from
    /// it is distinct and stable.
    public func decode(_ bytes: [UInt8]) -> String {
        guard let encoding else { return ListingNameCodec.decodeUTF8Reversibly(bytes) }
        if let utf8 = Self.convert(bytes, from: encoding, to: "UTF-8") {
            return String(decoding: utf8, as: UTF8.self)
        }
        return Self.decodeReversibly(bytes, from: encoding)
    }

    /// Decodes `bytes` piece by piece: each byte iconv cannot take becomes U+F700 + byte. One
    /// pass: iconv converts up to the first byte it cannot take, that byte is escaped, and the
    /// conversion goes on after it (linear in the name's length, however many bytes are bad).
    static func decodeReversibly(_ bytes: [UInt8], from encoding: String) -> String {
        let decoded = IconvPool.withDescriptor(from: encoding, to: "UTF-8") { descriptor in
            decodeReversibly(bytes, with: descriptor)
        }
        return decoded ?? decodeReversibly(bytes, with: nil)
    }

    /// `decodeReversibly(_:from:)` with an open descriptor (nil: every byte escaped).
    private static func decodeReversibly(_ bytes: [UInt8], with descriptor: iconv_t?) -> String {
        var scalars = String.UnicodeScalarView()
        var input = bytes.map { CChar(bitPattern: $0) }
        var output = [UInt8](repeating: 0, count: bytes.count * 4 + 16)
        let outputCount = output.count
        var start = 0
        while start < bytes.count {
            // How many bytes from `start` iconv converted, and the UTF-8 it made of them.
            var consumed = 0
            var produced = 0
            if let descriptor {
                input.withUnsafeMutableBufferPointer { inBuffer in
                    output.withUnsafeMutableBytes { outBuffer in
                        var inPointer = inBuffer.baseAddress.map { $0 + start }
                        var inLeft = inBuffer.count - start
                        var outPointer = outBuffer.baseAddress?.assumingMemoryBound(to: CChar.self)
                        var outLeft = outputCount
                        _ = iconv(descriptor, nil, nil, nil, nil)  // a fresh shift state
                        _ = iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft)
                        consumed = inBuffer.count - start - inLeft
                        produced = outputCount - outLeft
                    }
                }
            }
            scalars.append(contentsOf: String(decoding: output[0..<produced], as: UTF8.self).unicodeScalars)
            start += consumed
            if start < bytes.count {  // iconv stopped at a byte it cannot take
                scalars.append(Unicode.Scalar(0xF700 + UInt32(bytes[start])) ?? "\u{FFFD}")
                start += 1
            }
        }
        return String(scalars)
    }

    /// Converts `input` with iconv; nil when a sequence is invalid or unrepresentable.
    static func convert(_ input: [UInt8], from source: String, to target: String) -> [UInt8]? {
        if input.isEmpty { return [] }
        return IconvPool.withDescriptor(from: source, to: target) { convert(input, with: $0) } ?? nil
    }

    /// `convert(_:from:to:)` with an open descriptor in its initial shift state.
    private static func convert(_ input: [UInt8], with descriptor: iconv_t) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: input.count * 4 + 16)
        var source = input.map { CChar(bitPattern: $0) }
        let outputCount = output.count
        let produced: Int? = source.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBytes { outBuffer in
                var inPointer: UnsafeMutablePointer<CChar>? = inBuffer.baseAddress
                var inLeft = inBuffer.count
                var outPointer: UnsafeMutablePointer<CChar>? = outBuffer.baseAddress?.assumingMemoryBound(
                    to: CChar.self)
                var outLeft = outputCount
                let result = iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft)
                guard result != -1, inLeft == 0 else { return nil }
                // Flush any shift state (stateful encodings such as ISO-2022-JP).
                guard iconv(descriptor, nil, nil, &outPointer, &outLeft) != -1 else { return nil }
                return outputCount - outLeft
            }
        }
        guard let produced else { return nil }
        return Array(output.prefix(produced))
    }
}
