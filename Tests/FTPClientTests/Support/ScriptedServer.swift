// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Glibc

/// An FTP server on loopback whose replies a test writes byte for byte: each connection gets
/// the `greeting`, then every command goes to the test's `script` first; the commands it does
/// not handle (it returns false) get ordinary replies (`ScriptedPeer.answer`). Each connection
/// runs on its own thread; `stop()` (or release) closes the listener and every connection.
final class ScriptedServer: @unchecked Sendable {
    /// A socket call of the server failed.
    struct SetupError: Error, CustomStringConvertible {
        let description: String
    }

    let address: String
    let port: Int
    private let listener: Int32
    private let connections = Descriptors()

    /// Starts listening on `address` (a free port).
    /// - Parameters:
    ///   - greeting: the bytes sent first on every connection.
    ///   - script: handles one command (`verb` upper-cased, `argument` as sent) on `peer`;
    ///     returns false to leave it to `ScriptedPeer.answer`.
    init(
        address: String, greeting: String = "220 scripted server ready\r\n",
        script: @escaping @Sendable (_ peer: ScriptedPeer, _ verb: String, _ argument: String) -> Bool = { _, _, _ in
            false
        }
    ) throws {
        self.address = address
        (listener, port) = try Self.listen(on: address)
        let listener = listener
        let connections = connections
        Thread.detachNewThread {
            while true {
                let fd = accept(listener, nil, nil)
                guard fd >= 0 else { return }
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)  // see `listen(on:)`
                connections.add(fd)
                Thread.detachNewThread {
                    let peer = ScriptedPeer(control: fd, address: address)
                    peer.send(greeting)
                    while let line = peer.command() {
                        let verb = String(line.prefix { $0 != " " }).uppercased()
                        let argument = line.count > verb.count ? String(line.dropFirst(verb.count + 1)) : ""
                        if !script(peer, verb, argument) { peer.answer(verb, argument) }
                        if verb == "QUIT" { break }
                    }
                    shutdown(fd, Int32(SHUT_RDWR))
                }
            }
        }
    }

    /// Closes the listener and every connection (idempotent).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        for fd in connections.removeAll() { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    deinit { stop() }

    /// A listening TCP socket on `address` and its port.
    static func listen(on address: String) throws -> (Int32, Int) {
        // Close-on-exec: a server spawned by another test must not keep these sockets open
        // (a data connection closed here would then never reach its end for the client).
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SetupError(description: "socket: \(errno)") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, address, &socketAddress.sin_addr)
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, Glibc.listen(fd, 8) == 0 else {
            close(fd)
            throw SetupError(description: "cannot listen on \(address): \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: socketAddress.sin_port)))
    }
}

/// The open connections of a `ScriptedServer`, shared with its accepting thread.
private final class Descriptors: @unchecked Sendable {
    private let lock = NSLock()
    private var open: [Int32] = []

    func add(_ fd: Int32) { lock.withLock { open.append(fd) } }

    /// Every descriptor added so far; the list is empty afterwards.
    func removeAll() -> [Int32] {
        lock.withLock {
            defer { open = [] }
            return open
        }
    }
}

/// One connection of a `ScriptedServer`: raw writes on the control connection, command lines
/// read from it, and passive data connections.
final class ScriptedPeer: @unchecked Sendable {
    private let control: Int32
    private let address: String
    private var pending: [UInt8] = []
    private var dataListener: Int32 = -1

    /// The files RETR sends and SIZE measures, by name (as the argument names them).
    var files: [String: [UInt8]] = ["a.txt": Array("first file\n".utf8)]
    /// The LIST output of every folder.
    var listing = "-rw-r--r-- 1 ftp ftp 11 May 01 10:20 a.txt\r\n"

    init(control: Int32, address: String) {
        self.control = control
        self.address = address
    }

    /// Sends `text` as UTF-8 in one write (one TCP segment on loopback).
    func send(_ text: String) { send(bytes: Array(text.utf8)) }

    /// Sends `bytes` in one write.
    func send(bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(control, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The next command line (CR LF or LF stripped); nil when the client hung up.
    func command() -> String? {
        while true {
            if let newline = pending.firstIndex(of: 10) {
                var line = Array(pending[..<newline])
                pending.removeFirst(newline + 1)
                if line.last == 13 { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(control, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            pending += chunk[0..<count]
        }
    }

    /// Drops the command bytes received but not read yet: a server that reads one command
    /// per packet and loses what a pipelining client sent behind it.
    func dropPendingInput() { pending.removeAll() }

    /// Opens a passive listener on the server's address and returns its port.
    func openPassive() -> Int {
        if dataListener >= 0 { close(dataListener) }
        guard let (fd, port) = try? ScriptedServer.listen(on: address) else { return 0 }
        dataListener = fd
        return port
    }

    /// Accepts the data connection on the passive listener; -1 when there is none.
    func acceptData() -> Int32 {
        guard dataListener >= 0 else { return -1 }
        let fd = accept(dataListener, nil, nil)
        if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }  // see `listen(on:)`
        close(dataListener)
        dataListener = -1
        return fd
    }

    /// Writes `bytes` on the data connection `fd` (in one write).
    func sendData(_ fd: Int32, _ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The ordinary reply to a command: a logged-in server without MLSD whose EPSV and PASV
    /// work, whose LIST sends `listing` and RETR the file of `files` (150, the data, 226).
    func answer(_ verb: String, _ argument: String) {
        switch verb {
        case "USER": send("331 Password required\r\n")
        case "PASS": send("230 Logged in\r\n")
        case "FEAT": send("211-Features:\r\n MDTM\r\n SIZE\r\n211 End\r\n")
        case "TYPE", "OPTS", "NOOP": send("200 OK\r\n")
        case "SYST": send("215 UNIX Type: L8\r\n")
        case "PWD": send("257 \"/\" is the current folder\r\n")
        case "QUIT": send("221 Bye\r\n")
        case "EPSV": send("229 Entering Extended Passive Mode (|||\(openPassive())|)\r\n")
        case "PASV":
            let port = openPassive()
            let host = address.replacingOccurrences(of: ".", with: ",")
            send("227 Entering Passive Mode (\(host),\(port >> 8),\(port & 255))\r\n")
        case "LIST": transfer(Array(listing.utf8))
        case "RETR":
            if let bytes = files[argument] { transfer(bytes) } else { send("550 No such file\r\n") }
        case "SIZE":
            if let bytes = files[argument] { send("213 \(bytes.count)\r\n") } else { send("550 No such file\r\n") }
        case "DELE", "RMD", "CWD": send("250 Done\r\n")
        case "MKD": send("257 \"\(argument)\" created\r\n")
        default: send("502 Command not implemented\r\n")
        }
    }

    /// 150, `bytes` on the accepted data connection, its close, 226.
    func transfer(_ bytes: [UInt8]) {
        let data = acceptData()
        send("150 Opening data connection\r\n")
        sendData(data, bytes)
        close(data)
        send("226 Transfer complete\r\n")
    }
}
