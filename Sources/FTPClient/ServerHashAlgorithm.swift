// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import COpenSSL

/// A hash algorithm an FTP server may compute over a file: by `HASH` (draft-bryan-ftpext-hash
/// §3, chosen with `OPTS HASH`) or by one of the older `XSHA256`, `XSHA1`, `XMD5`, `XCRC`
/// commands. Raw values are the names `HASH` uses.
public enum ServerHashAlgorithm: String, Sendable, CaseIterable {
    /// SHA-256 (FIPS 180-4).
    case sha256 = "SHA-256"
    /// SHA-1 (FIPS 180-4).
    case sha1 = "SHA-1"
    /// MD5 (RFC 1321).
    case md5 = "MD5"
    /// CRC-32 (ISO 3309), as `XCRC` computes it.
    case crc32 = "CRC32"

    /// The older command that computes this algorithm over a whole file.
    public var legacyCommand: String {
        switch self {
        case .sha256: return "XSHA256"
        case .sha1: return "XSHA1"
        case .md5: return "XMD5"
        case .crc32: return "XCRC"
        }
    }

    /// Length of the digest in bytes.
    public var digestLength: Int {
        switch self {
        case .sha256: return 32
        case .sha1: return 20
        case .md5: return 16
        case .crc32: return 4
        }
    }

    /// The digest in a server's hex text (either case; a CRC32 may come without its leading
    /// zeros); nil when `text` is not hex of this algorithm's length.
    public func digest(fromHex text: Substring) -> [UInt8]? {
        let hexLength = digestLength * 2
        guard !text.isEmpty, text.count <= hexLength, self == .crc32 || text.count == hexLength else { return nil }
        let padded = Array(repeating: Character("0"), count: hexLength - text.count) + Array(text)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digestLength)
        var index = 0
        while index < padded.count {
            guard let high = padded[index].hexDigitValue, let low = padded[index + 1].hexDigitValue else {
                return nil
            }
            bytes.append(UInt8(high * 16 + low))
            index += 2
        }
        return bytes
    }

    /// A hasher computing this algorithm here, over bytes fed in order, for comparison with the
    /// server's digest of the same content.
    public func makeHasher() -> ContentHasher { ContentHasher(self) }
}

/// Computes one `ServerHashAlgorithm` over bytes fed in order: SHA-256, SHA-1 and MD5 through
/// OpenSSL's EVP interface, CRC32 (ISO 3309, as `XCRC` and `HASH CRC32` use) here.
public final class ContentHasher {
    /// What this hasher computes.
    public let algorithm: ServerHashAlgorithm
    private let context: OpaquePointer?
    private var crc: UInt32 = 0xFFFF_FFFF

    init(_ algorithm: ServerHashAlgorithm) {
        self.algorithm = algorithm
        let type: OpaquePointer?
        switch algorithm {
        case .sha256: type = EVP_sha256()
        case .sha1: type = EVP_sha1()
        case .md5: type = EVP_md5()
        case .crc32: type = nil
        }
        if let type, let made = EVP_MD_CTX_new() {
            context = EVP_DigestInit_ex(made, type, nil) == 1 ? made : nil
            if context == nil { EVP_MD_CTX_free(made) }
        } else {
            context = nil
        }
    }

    deinit { if let context { EVP_MD_CTX_free(context) } }

    /// Adds `bytes` to the digest.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        if algorithm == .crc32 {
            var value = crc
            for byte in bytes { value = Self.crcTable[Int((value ^ UInt32(byte)) & 0xFF)] ^ (value >> 8) }
            crc = value
        } else if let context {
            _ = EVP_DigestUpdate(context, bytes.baseAddress, bytes.count)
        }
    }

    /// The digest of everything fed; nil when OpenSSL could not compute it (then nothing can be
    /// compared). Call once.
    public func finalize() -> [UInt8]? {
        if algorithm == .crc32 {
            let value = ~crc
            return [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
        }
        guard let context else { return nil }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1, Int(length) == algorithm.digestLength else {
            return nil
        }
        return Array(digest.prefix(Int(length)))
    }

    /// The reflected CRC-32 table (polynomial 0xEDB88320).
    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }
}
