// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Testing

/// 227 and 229 replies from the cases file (categories pasv_reply, epsv_reply).
@Suite struct PassiveReplyTests {
    static let ids = (Cases.category("pasv_reply") + Cases.category("epsv_reply")).map(\.id)

    /// Parses the case's reply and checks the endpoint under both policies, or the error.
    ///
    /// Choices where the cases record several readings: PV-03 (private reply address that
    /// differs from a private peer) gets the peer under `.peer` (the default; the case's
    /// expected address is what `.server` gives); EP-03 (`(||port|)`) is rejected strictly,
    /// which makes the session fall back to PASV.
    @Test(arguments: ids.filter { $0 != "EP-06" && $0 != "EP-07" })
    func passiveReply(_ id: String) throws {
        let item = try #require(Cases.named(id))
        let given = try #require(item.expected["given"]?.object)
        let peer = Cases.host(ofPeer: try #require(given["control_peer"]?.string))
        let (replies, open) = try Cases.replies(item.input)
        #expect(!open)
        let reply = try #require(replies.first)
        if item.expected["error"] != nil || item.expected["strict_result"] != nil {
            #expect(throws: FTPError.self) { try PassiveEndpoint.parse(reply) }
            if let also = item.expected["also"]?.object, let input = also["input"]?.string {
                let other = try #require(try Cases.replies(input).replies.first)
                #expect(throws: FTPError.self) { try PassiveEndpoint.parse(other) }
            }
            return
        }
        let endpoint = try PassiveEndpoint.parse(reply)
        #expect(Int(endpoint.port) == item.expected["data_port"]?.int)
        let viaPeer = endpoint.dataHost(peer: peer, policy: .peer)
        let viaServer = endpoint.dataHost(peer: peer, policy: .server)
        #expect(viaPeer == peer)
        if let replyHost = item.expected["reply_host"]?.string {
            #expect(viaServer == (replyHost == "0.0.0.0" ? peer : replyHost))
        }
        if let secure = item.expected["data_host_default_secure"]?.string { #expect(viaPeer == secure) }
        if let trusted = item.expected["data_host_if_reply_trusted"]?.string { #expect(viaServer == trusted) }
        if let expected = item.expected["data_host"]?.string {
            #expect((id == "PV-03" ? viaServer : viaPeer) == expected)
        }
    }

    /// EP-06: a 500 to EPSV is no passive reply; the session then sends PASV (shown live
    /// in LiveServerTests.oldServerFallsBackToPASVAndLIST).
    @Test func refusedEPSVIsNotAnEndpoint() throws {
        let item = try #require(Cases.named("EP-06"))
        let reply = try #require(try Cases.replies(item.input).replies.first)
        #expect(reply.code == 500)
        #expect(throws: FTPError.self) { try PassiveEndpoint.parse(reply) }
    }

    /// EP-07: the 229 parses; the failure only shows when connecting (then PASV is used).
    @Test func epsvReplyWithUnreachablePortStillParses() throws {
        let item = try #require(Cases.named("EP-07"))
        let reply = try #require(try Cases.replies(item.input).replies.first)
        #expect(try PassiveEndpoint.parse(reply) == .port(49_877))
    }

    @Test(arguments: [
        ("227 Entering Passive Mode (1,2,3,4,5)", false),
        ("227 Entering Passive Mode (1,2,3,4,5,6,7)", false),
        ("227 Entering Passive Mode (1,2,3,4,0,0)", false),
        ("227 =127,0,0,1,4,1", true),
        ("227 ok 12 (127,0,0,1,4,1)", true),
        ("227 (99999999999999999999999,0,0,1,4,1)", false),
        ("229 (|||65535|)", true),
        ("229 (|||0|)", false),
        ("229 (|||99999999999999999999|)", false),
        ("229 (|||12|", false),
        ("229 ", false),
        ("229 (", false),
        ("200 (|||12|)", false),
    ])
    func edgeCases(_ line: String, _ valid: Bool) throws {
        let reply = try #require(try Cases.replies(line + "\r\n").replies.first)
        if valid {
            #expect(throws: Never.self) { try PassiveEndpoint.parse(reply) }
        } else {
            #expect(throws: FTPError.self) { try PassiveEndpoint.parse(reply) }
        }
    }
}
