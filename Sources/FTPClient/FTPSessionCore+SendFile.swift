import Foundation

extension FTPSessionCore {
    /// The most bytes asked of one sendfile(2) call; progress is reported after each.
    static let sendFileChunk = 4 * 1024 * 1024
    /// The fewest bytes asked of one sendfile(2) call.
    static let smallestSendFileChunk = 64 * 1024
    /// How long one sendfile(2) call should take, in seconds: the chunk follows the measured
    /// rate so that `progress` (and through it a cancelled run) is heard from this often also on
    /// a slow link, while a fast one keeps sending 4 MiB a call.
    static let sendFileStepSeconds = 0.25

    /// The next chunk after one of `bytes` that took `seconds`: `sendFileStepSeconds` worth at
    /// that rate, within `smallestSendFileChunk`...`sendFileChunk`.
    static func nextSendFileChunk(after bytes: Int, seconds: Double) -> Int {
        guard bytes > 0, seconds > 0, seconds.isFinite else { return sendFileChunk }
        let wanted = Double(bytes) / seconds * sendFileStepSeconds
        guard wanted.isFinite else { return sendFileChunk }
        return Int(min(max(wanted, Double(smallestSendFileChunk)), Double(sendFileChunk)))
    }

    /// Uploads the open local file `file` from its byte `fileOffset`, at most `length` bytes (all
    /// to its end when nil; a file that grew meanwhile is not sent beyond): STOR (or APPE
    /// when `append`, RFC 959 §4.1.3), preceded by `REST offset` when `offset` > 0 (RFC 3659 §5).
    /// Over a plain data connection the bytes go from the page cache to the socket with
    /// sendfile(2), never copied through this process; over TLS (RFC 4217) they are read with
    /// pread(2) and encrypted as usual. `progress` gets the bytes sent after each step and may
    /// throw to abandon the transfer (the session stays usable). The descriptor is neither moved
    /// nor closed.
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
                if let socket = data as? SocketTransport {
                    // The buffer follows the device's measured rate (`SendBufferSizing`).
                    var sizing = SendBufferSizing(now: SocketTransport.monotonicSeconds())
                    socket.setSendBuffer(sizing.size)
                    var chunk = Self.smallestSendFileChunk * 4
                    while left > 0 {
                        let step = configuration.bandwidthLimits.step(Int(min(UInt64(chunk), left)))
                        let began = SocketTransport.monotonicSeconds()
                        let count = try socket.sendFile(file, from: &position, count: step)
                        if count == 0 { return }
                        chunk = Self.nextSendFileChunk(
                            after: count, seconds: SocketTransport.monotonicSeconds() - began)
                        left -= UInt64(count)
                        sent += UInt64(count)
                        let queued = UInt64(socket.queuedBytes ?? 0)
                        let delivered = sent > queued ? sent - queued : 0
                        if let grown = sizing.observe(delivered: delivered, at: SocketTransport.monotonicSeconds()) {
                            socket.setSendBuffer(grown)
                        }
                        try paceData(count)
                        try progress(count)
                    }
                    return
                }
                if dataBuffer.isEmpty { dataBuffer = [UInt8](repeating: 0, count: Self.dataBufferSize) }
                while left > 0 {
                    let count = try dataBuffer.withUnsafeMutableBytes { buffer in
                        let step = configuration.bandwidthLimits.step(Int(min(UInt64(buffer.count), left)))
                        return try Self.readFile(
                            file, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<step]), at: position)
                    }
                    if count == 0 { return }
                    left -= UInt64(count)
                    try dataBuffer.withUnsafeBytes { try data.write(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                    position += off_t(count)
                    sent += UInt64(count)
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

extension SocketTransport {
    /// Sends up to `count` bytes of the open file `file` from byte `position` (advanced by the
    /// bytes sent) without copying (`SocketPlatform.sendFile`), waiting at most the timeout without progress (bytes
    /// leaving the send queue count) for the socket to take more.
    /// SIGPIPE is kept away (`SocketPlatform.withoutSIGPIPE`), so a closed peer is an error, never a signal.
    /// - Returns: the bytes sent; 0 at the end of the file.
    /// - Throws: `TransportError.timedOut`, `.closedByPeer` (reset, broken pipe) or `.failed`
    ///   (also for a read error of the file, with the system's message).
    func sendFile(_ file: Int32, from position: inout off_t, count: Int) throws(TransportError) -> Int {
        try SocketPlatform.withoutSIGPIPE { () throws(TransportError) -> Int in
            while true {
                guard fileDescriptor >= 0 else { throw .failed("connection closed") }
                let result = SocketPlatform.sendFile(file, to: fileDescriptor, from: &position, count: count)
                if result >= 0 { return result }
                let code = errno
                switch code {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: try waitUntilReady(forWriting: true)
                case ECONNRESET, EPIPE: throw .closedByPeer
                default: throw .failed("sendfile: " + String(cString: strerror(code)))
                }
            }
        }
    }
}
