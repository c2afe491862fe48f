// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Testing

@testable import FTPClient

/// How the replies read during and after a transfer with NOOPs are matched (issue 19): the
/// NOOPs' 200s before or after the transfer's own reply, never mistaken for it.
struct TransferKeepaliveTests {
    static func reply(_ code: Int, _ text: String = "x") -> FTPReply {
        FTPReply(code: code, lines: ["\(code) \(text)"])
    }

    static func filed(_ codes: [Int], sent: Int) -> TransferKeepalive {
        var keepalive = TransferKeepalive(interval: 1, due: 0)
        keepalive.sent = sent
        for code in codes { keepalive.file(reply(code)) }
        return keepalive
    }

    @Test func noopRepliesBeforeOrAfterTheTransfersReplyAreMatched() {
        for codes in [[200, 200, 226], [226, 200, 200], [200, 226, 200]] {
            let keepalive = Self.filed(codes, sent: 2)
            #expect(keepalive.final?.code == 226, "\(codes)")
            #expect(keepalive.outstanding == 0 && keepalive.misstep == nil, "\(codes)")
        }
        // A failed transfer's own reply stays the transfer's.
        #expect(Self.filed([200, 426], sent: 1).final?.code == 426)
        #expect(Self.filed([550], sent: 1).final?.code == 550, "550 is no refusal of NOOP")
    }

    @Test func aRefusedNOOPOrAnUnmatchedReplyIsAMisstep() {
        let refused = Self.filed([500, 226], sent: 1)
        #expect(refused.final?.code == 226, "the 500 answered the NOOP, not the transfer")
        #expect(refused.misstep?.contains("500") == true)
        let doubled = Self.filed([226, 226], sent: 1)
        #expect(doubled.misstep != nil && doubled.outstanding == 1, "a second 226 matches nothing")
    }
}
