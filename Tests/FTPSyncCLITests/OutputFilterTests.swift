// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import FTPSyncCLI

/// Issue 13 items 13 and 14: what every printed and logged line passes through.
@Suite struct OutputFilterTests {
    @Test func textIsScrubbedThenEscapedLineByLine() {
        let filter = OutputFilter()
        #expect(filter.text("cam: 530 'PASS hunter22'\u{1B}[2J\n") == "cam: 530 'PASS hunter22'\\x1b[2J\n")
        filter.protect(["hunter22"])
        #expect(filter.text("cam: 530 'PASS hunter22'\u{1B}[2J\nnext") == "cam: 530 'PASS ****'\\x1b[2J\nnext")
        #expect(filter.line("a\nb") == "a\\x0ab")
        filter.protect(["x"])  // too short to mask in all output: the session masks it in replies
        #expect(filter.text("/etc/x") == "/etc/x")
    }

    @Test(arguments: ["null", "1234", "true", "pa\"ss", "back\\slash", "hunter22"])
    func jsonStaysValidWhateverThePassword(password: String) throws {
        let filter = OutputFilter()
        filter.protect([password])
        struct Document: Encodable {
            var error: String?
            var bytes: Int
            var ok: Bool
            var note: String
        }
        let text = jsonText(Document(error: nil, bytes: 1234, ok: true, note: "530 'PASS \(password)' refused\u{9B}"))
        let shown = filter.json(text)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])
        #expect(parsed["note"] as? String == "530 'PASS ****' refused\u{9B}")
        #expect(parsed["bytes"] as? Int == 1234)
        #expect(parsed["ok"] as? Bool == true)
        #expect(!shown.unicodeScalars.contains { $0.value == 0x9B })
    }
}
