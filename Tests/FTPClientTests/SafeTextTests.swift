// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Testing

@testable import FTPClient

/// Issue 13 items 13 and 14: the one set of rules for server text, and the secret scrubber.
@Suite struct SafeTextTests {
    @Test(
        arguments: [
            ("plain name.jpg", "plain name.jpg"), ("照片/小.jpg", "照片/小.jpg"),
            ("\u{1B}[31mred", "\\x1b[31mred"), ("\u{1B}]0;owned\u{07}", "\\x1b]0;owned\\x07"),
            ("tab\there", "tab\\x09here"), ("cr\rlf\n", "cr\\x0dlf\\x0a"), ("nul\u{0}", "nul\\x00"),
            ("del\u{7F}", "del\\x7f"), ("csi\u{9B}2J", "csi\\u{9b}2J"), ("c1\u{80}\u{9F}", "c1\\u{80}\\u{9f}"),
            ("nbsp\u{A0}ok", "nbsp\u{A0}ok"), ("bad\u{F7FF}byte", "bad\\xffbyte"), ("gbk\u{F781}", "gbk\\x81"),
            ("private\u{F77F}", "private\u{F77F}"), ("back\\slash", "back\\slash"),
        ])
    func serverTextIsEscapedByOneSetOfRules(text: String, shown: String) {
        #expect(SafeText.escaped(text) == shown)
        #expect(SafeText.escaped(shown) == shown)  // escaping twice changes nothing
        #expect(!SafeText.escaped(text).unicodeScalars.contains(where: SafeText.needsEscape))
    }

    @Test func linesKeepTheirLineFeedsOnly() {
        #expect(SafeText.escapedLines("a\u{1B}[2J\nb\rc\n") == "a\\x1b[2J\nb\\x0dc\n")
    }

    @Test(
        arguments: [
            (#"{"a" : "x\u001b"}"#, #"{"a" : "x\u001b"}"#), ("{\"a\" : \"csi\u{9B}\"}", #"{"a" : "csi\u009b"}"#),
            ("{\"a\" : \"del\u{7F}\"}", #"{"a" : "del\u007f"}"#),
            ("{\"a\" : \"b\u{F7FF}\"}", "{\"a\" : \"b\u{F7FF}\"}"),
        ])
    func jsonKeepsItsMeaningAndLosesItsRawControls(json: String, shown: String) {
        #expect(SafeText.escapedJSON(json) == shown)
    }

    @Test(
        arguments: [
            (["Sup3r-Secret-77"], "530 'PASS Sup3r-Secret-77' refused", "530 'PASS ****' refused"),
            (["Sup3r-Secret-77"], "a Sup3r-Secret-77Sup3r-Secret-77 b", "a ******** b"),
            (["secret"], "no secrets here", "no ****s here"),
            (["x"], "530 'PASS x' refused", "530 'PASS ****' refused"),
            (["x"], "Syntax error, exit", "Syntax error, exit"), (["42"], "PASS 42; 4242 1420", "PASS ****; 4242 1420"),
            (["ab", "abcd"], "abcd ab", "**** ****"), ([""], "unchanged", "unchanged"), ([], "unchanged", "unchanged"),
            (["pässwort"], "230 Hallo pässwort!", "230 Hallo ****!"),
        ] as [([String], String, String)])
    func secretsAreMasked(secrets: [String], text: String, scrubbed: String) {
        #expect(SecretScrubber(secrets).scrub(text) == scrubbed)
    }

    @Test func aFilterOverAllOutputLeavesShortSecretsAlone() {
        let all = SecretScrubber(["x", "42", "hunter22"], shortest: SecretScrubber.anywhereLength)
        #expect(all.secrets == ["hunter22"])
        #expect(all.scrub("/etc/x: PASS hunter22") == "/etc/x: PASS ****")
    }

    @Test func errorsAndRepliesAreScrubbedThroughout() {
        let scrubber = SecretScrubber(["hunter22"])
        let reply = FTPReply(code: 530, lines: ["530-PASS hunter22", "530 refused hunter22"])
        #expect(scrubber.scrub(reply).lines == ["530-PASS ****", "530 refused ****"])
        let errors: [FTPError] = [
            .reply(code: 530, text: "PASS hunter22 refused", command: "PASS ****"),
            .protocolViolation("SIZE reply without a number: hunter22"), .tlsFailed("the server said 522 hunter22"),
            .dataConnectionClosed(bytesTransferred: 3, reason: "426 hunter22"), .outOfStep("226 hunter22"),
            .tlsRefused(code: 534, text: "no TLS for hunter22"), .timedOut(during: "RETR hunter22"),
        ]
        for error in errors {
            #expect(!error.scrubbed(by: scrubber).description.contains("hunter22"), "\(error)")
            #expect(error.description.contains("hunter22"))
        }
    }
}
