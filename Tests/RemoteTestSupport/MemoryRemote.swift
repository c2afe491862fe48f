// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import FTPListing
import Foundation
import SyncEngine

/// One control connection to a `MemoryServer`, as the engine sees a device: every call is a
/// command the server counts and may fault. A lost connection (`dropAtCommand`) stays lost:
/// every later call fails with `FTPError.connectionClosed`.
public final class MemoryRemote: RemoteFileSystem, @unchecked Sendable {
    /// Bytes per chunk handed to a download's sink or read from an upload's source.
    public static let chunk = 16 * 1024

    private let server: MemoryServer
    /// This connection's number on the server (1-based, in connect order).
    public let number: Int
    private var lost = false
    public var learned = LearnedState()

    init(server: MemoryServer, number: Int) {
        self.server = server
        self.number = number
    }

    private func command(_ verb: String) throws {
        if lost { throw FTPError.connectionClosed }
        do {
            try server.command(verb, on: number)
        } catch FTPError.connectionClosed {
            lost = true
            server.closed()
            throw FTPError.connectionClosed
        }
    }

    private static func missing(_ path: String, _ verb: String) -> FTPError {
        .reply(code: 550, text: "\(path): no such file", command: verb)
    }

    public func list(_ path: String) throws -> ParsedListing {
        try command("LIST")
        return try server.listing(path)
    }

    public func retrieve(_ path: String, from offset: UInt64, to sink: (UnsafeRawBufferPointer) throws -> Void) throws
        -> UInt64
    {
        if offset > 0 { try command("REST") }
        try command("RETR")
        guard let file = server.file(path) else { throw Self.missing(path, "RETR") }
        let bytes = offset < UInt64(file.bytes.count) ? Array(file.bytes[Int(offset)...]) : []
        let limit = server.transferLimit(path, storing: false)
        let allowed = min(UInt64(bytes.count), limit?.bytes ?? .max)
        var sent: UInt64 = 0
        while sent < allowed {
            let end = Int(min(allowed, sent + UInt64(Self.chunk)))
            try bytes[Int(sent)..<end].withUnsafeBytes { try sink($0) }
            sent = UInt64(end)
        }
        if let limit, !limit.endsComplete, allowed < UInt64(bytes.count) {
            throw FTPError.dataConnectionClosed(bytesTransferred: sent, reason: "cut by the test")
        }
        return sent
    }

    public func store(
        _ path: String, from offset: UInt64, append: Bool, source: UploadSource, sourceOffset: UInt64,
        length: UInt64, progress: (Int) throws -> Void
    ) throws -> UInt64 {
        if offset > 0 { try command("REST") }
        try command(append ? "APPE" : "STOR")
        let limit = server.transferLimit(path, storing: true)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: Self.chunk)
        var position = sourceOffset
        while UInt64(received.count) < length {
            let wanted = Int(min(UInt64(Self.chunk), length - UInt64(received.count)))
            let count = try buffer.withUnsafeMutableBytes {
                try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<wanted]), at: position)
            }
            if count == 0 { break }
            received += buffer[0..<count]
            position += UInt64(count)
            try progress(count)
        }
        var kept = received
        if let limit { kept = Array(received.prefix(Int(clamping: limit.bytes))) }
        server.withTree { files, _ in
            let old = files[path]?.bytes ?? []
            let base = append ? old : Array(old.prefix(Int(clamping: offset)))
            files[path] = MemoryServer.File(bytes: base + kept, modified: Date())
        }
        if let limit, !limit.endsComplete, kept.count < received.count {
            throw FTPError.dataConnectionClosed(bytesTransferred: UInt64(kept.count), reason: "cut by the test")
        }
        return UInt64(received.count)
    }

    public func size(_ path: String) throws -> UInt64 {
        try command("SIZE")
        if let lie = server.sizeAnswer(path) { return lie }
        guard let file = server.file(path) else { throw Self.missing(path, "SIZE") }
        return UInt64(file.bytes.count)
    }

    public func delete(_ path: String) throws {
        try command("DELE")
        try server.withTree { files, _ in
            guard files.removeValue(forKey: path) != nil else { throw Self.missing(path, "DELE") }
        }
    }

    public func rename(from: String, to: String) throws {
        try command("RNFR")
        try command("RNTO")
        try server.withTree { files, folders in
            if let file = files.removeValue(forKey: from) {
                files[to] = file
                return
            }
            guard let folder = folders.removeValue(forKey: from) else { throw Self.missing(from, "RNFR") }
            folders[to] = folder
            for (path, file) in files where path.hasPrefix(from + "/") {
                files[path] = nil
                files[to + path.dropFirst(from.count)] = file
            }
        }
    }

    public func makeDirectory(_ path: String) throws {
        try command("MKD")
        try server.withTree { files, folders in
            guard folders[path] == nil, files[path] == nil else {
                throw FTPError.reply(code: 550, text: "exists", command: "MKD")
            }
            folders[path] = Date()
        }
    }

    public func removeDirectory(_ path: String) throws {
        try command("RMD")
        try server.withTree { files, folders in
            let busy = files.keys.contains { $0.hasPrefix(path + "/") }
            guard folders[path] != nil, !busy else {
                throw FTPError.reply(code: 550, text: "not empty", command: "RMD")
            }
            folders[path] = nil
        }
    }

    public func setModificationTime(_ path: String, _ date: Date) throws {
        try command("MFMT")
        try server.withTree { files, _ in
            guard files[path] != nil else { throw Self.missing(path, "MFMT") }
            files[path]?.modified = date
        }
    }

    public func folderExists(_ path: String) throws -> Bool? {
        try command("MLST")
        return server.withTree { _, folders in folders[path] != nil }
    }

    public func preciseModificationTime(_ path: String) throws -> Date? {
        try command("MDTM")
        guard let file = server.file(path) else { throw Self.missing(path, "MDTM") }
        return file.modified
    }

    public var isConnected: Bool { !lost }

    public func identity() -> RemoteIdentity? { RemoteIdentity(identity: server.identity) }

    public func serverHash(_ path: String, size: UInt64?) throws -> ServerHash? {
        guard server.offersHash else { return nil }
        try command("HASH")
        guard let file = server.file(path) else { throw Self.missing(path, "HASH") }
        let hasher = ServerHashAlgorithm.sha256.makeHasher()
        file.bytes.withUnsafeBytes { hasher.update($0) }
        return ServerHash(algorithm: .sha256, digest: hasher.finalize() ?? [])
    }

    public func serverHash(_ path: String, range: Range<UInt64>) throws -> ServerHash? {
        guard server.offersHash else { return nil }
        try command("XSHA256")
        guard let file = server.file(path) else { throw Self.missing(path, "XSHA256") }
        let hasher = ServerHashAlgorithm.sha256.makeHasher()
        let end = Int(clamping: min(range.upperBound, UInt64(file.bytes.count)))
        let start = min(Int(clamping: range.lowerBound), end)
        file.bytes[start..<end].withUnsafeBytes { hasher.update($0) }
        return ServerHash(algorithm: .sha256, digest: hasher.finalize() ?? [])
    }

    public var expectedHashAlgorithm: ServerHashAlgorithm? { server.offersHash ? .sha256 : nil }

    public func fileHashAlgorithm() throws -> ServerHashAlgorithm? { expectedHashAlgorithm }

    public func close() {
        guard !lost else { return }
        lost = true
        server.closed()
    }
}
