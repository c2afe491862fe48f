// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPClient
import Foundation

/// A device whose server is at its connection limit (another client, or another device run on
/// the same server, holds its connections) answers the greeting or the login with 421. The
/// first connection of a device run waits and tries again before the device fails; extra
/// connections are not retried (see `TransferScheduler`): the device continues with fewer.
enum ConnectionLimit {
    /// Seconds to wait before each new attempt of a device run's first connection.
    static let waits: [Double] = [0.5, 1, 2, 4]

    /// True for the reply a server sends when it takes no more connections (421, RFC 959 §4.2,
    /// or a 530 that says so: `FTPError.isConnectionLimit`).
    static func isLimit(_ error: Error) -> Bool {
        (error as? FTPError)?.isConnectionLimit ?? false
    }

    /// Opens the first connection with `connect`, trying again after each wait of `waits` while
    /// the server answers 421.
    /// - Throws: the last error of `connect` (421 after the last wait, or any other error at once).
    static func first(
        _ connect: () throws -> RemoteFileSystem, sleep: (Double) -> Void = { Thread.sleep(forTimeInterval: $0) }
    ) throws -> RemoteFileSystem {
        for wait in waits {
            do {
                return try connect()
            } catch  where isLimit(error) {
                sleep(wait)
            }
        }
        return try connect()
    }
}
