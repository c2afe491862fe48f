// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Testing

@testable import SyncEngine

/// Issue 7: which errors are retried, and how long the waits between attempts are.
struct RetryPolicyTests {
    @Test(arguments: [
        // retry, random unit, expected seconds (base 0.5, cap 30)
        (1, 1.0, 0.5), (1, 0.0, 0.25), (2, 1.0, 1.0), (3, 1.0, 2.0), (4, 0.5, 3.0), (7, 1.0, 30.0),
        (40, 1.0, 30.0), (0, 1.0, 0.5),
    ])
    func waitsGrowExponentiallyWithJitterUpToTheCap(retry: Int, unit: Double, expected: Double) {
        let policy = RetryPolicy(retries: 3, baseDelay: 0.5, maximumDelay: 30)
        #expect(policy.delay(beforeRetry: retry, unit: unit) == expected)
    }

    @Test(arguments: [
        (FTPError.reply(code: 421, text: "Too many users", command: "connect"), true),
        (FTPError.reply(code: 425, text: "Can't open data connection", command: "RETR a"), true),
        (FTPError.reply(code: 426, text: "Connection closed", command: "RETR a"), true),
        (FTPError.reply(code: 450, text: "File busy", command: "RETR a"), true),
        (FTPError.reply(code: 451, text: "Local error", command: "STOR a"), true),
        (FTPError.reply(code: 550, text: "No such file", command: "RETR a"), false),
        (FTPError.reply(code: 553, text: "Not allowed", command: "STOR a"), false),
        (FTPError.timedOut(during: "greeting"), true),
        (FTPError.connectionClosed, true),
        (FTPError.dataConnectionClosed(bytesTransferred: 10, reason: "reset"), true),
        (FTPError.connectFailed(host: "127.0.0.1", port: 21, reason: "refused"), true),
        (FTPError.protocolViolation("garbage"), false),
        (FTPError.invalidName(name: "a\r", reason: "CR"), false),
    ])
    func transientErrorsAreRetriedPermanentOnesAreNot(error: FTPError, retried: Bool) {
        #expect(RetryPolicy.isRetryable(error) == retried)
    }

    @Test func localErrorsAndInterruptionsAreNeverRetried() {
        #expect(!RetryPolicy.isRetryable(RunInterrupted()))
        #expect(!RetryPolicy.isRetryable(EngineError.incompleteAction("x")))
    }

    @Test(arguments: [
        (FTPError.timedOut(during: "LIST"), true), (FTPError.connectionClosed, true),
        (FTPError.reply(code: 421, text: "closing", command: "RETR a"), true),
        (FTPError.reply(code: 426, text: "cut", command: "RETR a"), false),
        (FTPError.dataConnectionClosed(bytesTransferred: 1, reason: "reset"), false),
    ])
    func aFreshControlConnectionIsOpenedOnlyWhenTheOldOneIsGone(error: FTPError, reconnects: Bool) {
        #expect(ResilientRemote.losesControlConnection(error) == reconnects)
    }
}
