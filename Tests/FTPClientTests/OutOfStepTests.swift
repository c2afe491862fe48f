// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Testing

@testable import FTPClient

/// Replies that cannot answer the command they follow: the reply of an earlier command read
/// one too late (a server that sent a reply too many).
struct OutOfStepTests {
    /// (reply code, command verb, belongs to another command)
    @Test(arguments: [
        (213, "SIZE", false), (226, "SIZE", true), (350, "SIZE", true), (550, "SIZE", false),
        (350, "RNFR", false), (213, "RNFR", true), (250, "RNFR", true), (550, "RNFR", false),
        (350, "REST", false), (226, "REST", true), (502, "REST", false),
        (250, "DELE", false), (350, "DELE", true), (257, "MKD", false), (350, "MKD", true),
        (250, "RNTO", false), (350, "RNTO", true), (200, "TYPE", false), (200, "NOOP", false),
        (213, "MDTM", false), (250, "MDTM", false), (226, "RETR", false), (211, "FEAT", false),
    ])
    func positiveRepliesOfTheWrongKindBelongToAnotherCommand(code: Int, verb: String, other: Bool) {
        let reply = FTPReply(code: code, lines: ["\(code) text"])
        #expect(FTPSessionCore.answersAnotherCommand(reply, verb) == other)
    }
}
