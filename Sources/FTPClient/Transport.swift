// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// Why a transport operation failed, before the session adds what it was doing.
public enum TransportError: Error, Sendable, Equatable {
    /// No byte could be read or written within the timeout.
    case timedOut
    /// The peer reset or closed the connection while data was being written.
    case closedByPeer
    /// Any other failure, with the system's message.
    case failed(String)
}

/// A connected byte stream: a TCP socket now, TLS over a socket later (RFC 4217).
///
/// Implementations block the calling thread; each call waits at most the transport's
/// no-progress timeout. A transport is used by one thread at a time.
public protocol Transport: AnyObject {
    /// Reads at least one byte into `buffer`, waiting at most the timeout.
    /// - Returns: the number of bytes read; 0 when the peer closed the stream (end of data).
    /// - Throws: `TransportError.timedOut` when nothing arrived in time, `.closedByPeer` on a
    ///   reset, `.failed` otherwise.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(TransportError) -> Int
    /// Writes all of `bytes`, waiting at most the timeout for each bit of progress.
    /// - Throws: `TransportError.timedOut`, `.closedByPeer` (reset, broken pipe) or `.failed`.
    func write(_ bytes: UnsafeRawBufferPointer) throws(TransportError)
    /// Ends sending (half-close): the peer reads end of data. Used to finish uploads.
    func finishWriting()
    /// Closes the stream; idempotent.
    func close()
    /// The numeric address of the peer (`192.0.2.1`, `::1`): where data connections go.
    var peerHost: String { get }
    /// The no-progress timeout in seconds.
    var timeout: Double { get set }
}
