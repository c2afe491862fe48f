// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

extension FTPSessionCore {
    /// The most bytes read from the file and written to the data connection in one step:
    /// progress is reported after each.
    static let uploadStep = dataBufferSize
    /// The fewest bytes of one step.
    static let smallestUploadStep = 64 * 1024
    /// How long one step should take, in seconds: the step follows the measured rate so that
    /// `progress` (and through it a cancelled run) is heard from this often also on a slow
    /// link, while a fast one moves `uploadStep` bytes a step.
    static let uploadStepSeconds = 0.25

    /// The next step after one of `bytes` that took `seconds`: `uploadStepSeconds` worth at
    /// that rate, within `smallestUploadStep`...`uploadStep`.
    static func nextUploadStep(after bytes: Int, seconds: Double) -> Int {
        guard bytes > 0, seconds > 0, seconds.isFinite else { return uploadStep }
        let wanted = Double(bytes) / seconds * uploadStepSeconds
        guard wanted.isFinite else { return uploadStep }
        return Int(min(max(wanted, Double(smallestUploadStep)), Double(uploadStep)))
    }

    /// Uploads the open local file `file` from its byte `fileOffset`, at most `length` bytes (all
    /// to its end when nil; a file that grew meanwhile is not sent beyond): STOR (or APPE
    /// when `append`, RFC 959 §4.1.3), preceded by `REST offset` when `offset` > 0 (RFC 3659 §5).
    /// The file is read with pread(2) in steps of at most `uploadStep` bytes and written to the
    /// data connection (encrypted first over TLS, RFC 4217). sendfile(2) was used before: on
    /// loopback it took 0.22 s for 256 MiB where these steps take 0.16 s (docs/benchmarks.md).
    /// Over a plain data connection the send buffer follows the device's measured rate
    /// (`SendBufferSizing`). `progress` gets the bytes sent after each step and may throw to
    /// abandon the transfer (the session stays usable). The descriptor is neither moved nor
    /// closed.
    /// - Returns: the number of bytes sent.
    /// - Throws: as `store(_:from:append:offset:)`; a read error of the local file is
    ///   `LocalReadError`.
    @discardableResult
    func store(
        _ path: String, file: Int32, fileOffset: UInt64, length: UInt64? = nil, append: Bool = false,
        offset: UInt64 = 0, progress: (Int) throws -> Void
    ) throws -> UInt64 {
        try guarded {
            try transfer(append ? "APPE" : "STOR", path, offset: offset, uploading: true) { data, sent in
                var position = off_t(clamping: fileOffset)
                var left = length ?? .max
                if dataBuffer.isEmpty { dataBuffer = [UInt8](repeating: 0, count: Self.dataBufferSize) }
                let socket = data as? SocketTransport
                var sizing = SendBufferSizing(now: SocketTransport.monotonicSeconds())
                socket?.setSendBuffer(sizing.size)
                var step = Self.smallestUploadStep * 4
                while left > 0 {
                    let began = SocketTransport.monotonicSeconds()
                    let count = try dataBuffer.withUnsafeMutableBytes { buffer in
                        let wanted = configuration.bandwidthLimits.step(Int(min(UInt64(min(step, buffer.count)), left)))
                        return try Self.readFile(
                            file, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]), at: position)
                    }
                    if count == 0 { return }
                    try dataBuffer.withUnsafeBytes { try data.write(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                    step = Self.nextUploadStep(after: count, seconds: SocketTransport.monotonicSeconds() - began)
                    left -= UInt64(count)
                    position += off_t(count)
                    sent += UInt64(count)
                    if let socket {
                        let queued = UInt64(socket.queuedBytes ?? 0)
                        let delivered = sent > queued ? sent - queued : 0
                        if let grown = sizing.observe(delivered: delivered, at: SocketTransport.monotonicSeconds()) {
                            socket.setSendBuffer(grown)
                        }
                    }
                    try paceData(count)
                    try progress(count)
                }
            }
        }
    }

    private static func readFile(_ file: Int32, into buffer: UnsafeMutableRawBufferPointer, at position: off_t) throws
        -> Int
    {
        while true {
            let count = pread(file, buffer.baseAddress, buffer.count, position)
            if count >= 0 { return count }
            if errno != EINTR { throw LocalReadError(code: errno) }
        }
    }
}
