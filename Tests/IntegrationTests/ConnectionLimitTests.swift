// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 16: servers at their connection limit ("too many connections"), before login (a 421
/// greeting) and at login (530 to PASS). Addresses 127.0.23.20–29.
@Suite(.serialized) struct ConnectionLimitTests {
    static let environment = ["HOSTILE_PASS": "pw"]

    /// A server that greets every connection with 421: the first connection is retried with
    /// growing waits, then the device fails with one line that says it is the server's
    /// connection limit and to lower `connections`. Before issue 16 the line said only
    /// "too many connections?; retry later".
    @Test func a421GreetingOnEveryConnectionFailsWithOneClearLine() throws {
        let work = try makeTemporaryFolder("full-greeting")
        let server = try HostileServer("full", address: "127.0.23.20")
        defer { server.stop() }
        let config = try server.config(local: work + "/mirror", at: work, timeout: 2, retries: 0)
        let pulled = try ftpsync(["pull", config], environment: Self.environment, timeout: 60)
        #expect(pulled.status == 1, "\(pulled.stdout)\(pulled.stderr)")
        let output = pulled.stdout + pulled.stderr
        let lines = output.split(separator: "\n").filter { $0.contains("connection limit is reached") }
        #expect(lines.count == 1, "\(output)")
        #expect(lines.first?.contains("lower `connections` for this device") == true, "\(output)")
        // The first connection was tried again after each wait (0.5, 1, 2, 4 s).
        #expect(server.commands().filter { $0 == "CONNECT refused" }.count == 5, "\(server.commands())")
    }

    /// A server that takes one connection at a time, refusing the others with a 421 greeting
    /// or a 530 "too many users" to PASS: a device with `connections: 3` goes on over the one
    /// connection it got, and the pull completes (this worked before issue 16; the test
    /// documents it).
    @Test(arguments: [
        ("full-after-one", "127.0.23.21", "CONNECT refused"), ("full-login-after-one", "127.0.23.22", "PASS refused"),
    ])
    func aServerTakingOneConnectionGetsAPullOverOne(mode: String, address: String, refusal: String) throws {
        let work = try makeTemporaryFolder(mode)
        let server = try HostileServer(mode, address: address)
        defer { server.stop() }
        let config = try server.config(local: work + "/mirror", at: work, timeout: 2, retries: 1, connections: 3)
        let pulled = try ftpsync(["pull", config], environment: Self.environment, timeout: 60)
        #expect(pulled.status == 0, "\(pulled.stdout)\(pulled.stderr)")
        let good = FileManager.default.contents(atPath: work + "/mirror/cam/good.txt")
        #expect(good.map { String(decoding: $0, as: UTF8.self) } == "good content\n")
        let second = FileManager.default.contents(atPath: work + "/mirror/cam/sub/good2.txt")
        #expect(second.map { String(decoding: $0, as: UTF8.self) } == "second good file\n")
        #expect(server.commands().contains(refusal), "extra connections were not tried: \(server.commands())")
    }
}
