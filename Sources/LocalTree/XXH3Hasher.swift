// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import CXXHash
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Streaming XXH3-128 hasher over libxxhash.
///
/// Feed bytes with `update(_:)`, then read the digest once with `finalize()`: 32 lowercase hex
/// digits of the canonical (big-endian) form, the same text `xxhsum -H2` prints. Not thread-safe:
/// use one hasher per thread.
public final class XXH3Hasher {
    /// Size of the buffer used to read files, in bytes (1 MiB).
    public static let readBufferSize = 1 << 20

    private let state: OpaquePointer

    /// Makes a hasher with nothing fed yet.
    /// - Throws: `LocalFileError` (operation "hash") when libxxhash cannot allocate its state.
    public init() throws(LocalFileError) {
        guard let state = XXH3_createState() else {
            throw LocalFileError(operation: "hash", path: "", code: ENOMEM)
        }
        self.state = state
        XXH3_128bits_reset(state)
    }

    deinit {
        XXH3_freeState(state)
    }

    /// Feeds `bytes` to the hash.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        XXH3_128bits_update(state, base, bytes.count)
    }

    /// Feeds the bytes of an array to the hash.
    public func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest of everything fed so far, as 32 lowercase hex digits (big-endian canonical form).
    /// Feeding more bytes afterwards continues the same stream.
    public func finalize() -> String {
        XXH3Hasher.hex(XXH3_128bits_digest(state))
    }

    /// Feeds the first `length` bytes of the file at `path` (all of it when `length` is nil),
    /// reading with 1 MiB buffers. Used to hash a partial download before appending to it.
    /// - Returns: the number of bytes fed.
    /// - Throws: `LocalFileError` when the file cannot be opened or read, or (detail "short read")
    ///   when it holds fewer than `length` bytes.
    @discardableResult
    public func update(fileAt path: String, length: UInt64? = nil) throws(LocalFileError) -> UInt64 {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw LocalFileError.current("open", path) }
        defer { close(fd) }
        return try update(fd: fd, path: path, length: length)
    }

    /// Feeds bytes read from the open file `fd` from its current offset: `length` bytes, or up to
    /// the end when nil. `path` only names the file in errors.
    func update(fd: Int32, path: String, length: UInt64?) throws(LocalFileError) -> UInt64 {
        FilePlatform.adviseSequential(fd)
        let buffer = UnsafeMutableRawBufferPointer.allocate(
            byteCount: XXH3Hasher.readBufferSize, alignment: 64)
        defer { buffer.deallocate() }
        var total: UInt64 = 0
        while length.map({ total < $0 }) ?? true {
            var want = buffer.count
            if let length { want = Int(min(UInt64(want), length - total)) }
            let got = read(fd, buffer.baseAddress, want)
            if got < 0 {
                if errno == EINTR { continue }
                throw LocalFileError.current("read", path)
            }
            if got == 0 { break }
            update(UnsafeRawBufferPointer(rebasing: buffer[0..<got]))
            total += UInt64(got)
        }
        if let length, total < length {
            throw LocalFileError(
                operation: "read", path: path, code: 0, detail: "short read: \(total) of \(length) bytes")
        }
        return total
    }

    /// The XXH3-128 digest of the whole file at `path`, as 32 lowercase hex digits.
    /// - Throws: `LocalFileError` when the file cannot be opened or read.
    public static func digest(fileAt path: String) throws(LocalFileError) -> String {
        let hasher = try XXH3Hasher()
        try hasher.update(fileAt: path)
        return hasher.finalize()
    }

    /// The XXH3-128 digest of `bytes`, as 32 lowercase hex digits.
    public static func digest(of bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { hex(XXH3_128bits($0.baseAddress, $0.count)) }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func hex(_ hash: XXH128_hash_t) -> String {
        var canonical = XXH128_canonical_t()
        XXH128_canonicalFromHash(&canonical, hash)
        return withUnsafeBytes(of: &canonical.digest) { raw in
            var text: [UInt8] = []
            text.reserveCapacity(32)
            for byte in raw {
                text.append(hexDigits[Int(byte >> 4)])
                text.append(hexDigits[Int(byte & 0x0f)])
            }
            return String(decoding: text, as: UTF8.self)
        }
    }
}
