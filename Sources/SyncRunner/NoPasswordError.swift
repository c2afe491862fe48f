// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// A login the server refused for a device that names no password anywhere: the fault is the
/// missing password, not a wrong one (`DeviceConfig.explainingLogin(_:)`).
public struct NoPasswordError: Error, Sendable, CustomStringConvertible {
    /// The device's user name.
    public let user: String
    /// The server's refusal, `CODE TEXT`.
    public let refusal: String

    /// The error for `user`, whose login the server refused with `refusal` (`CODE TEXT`).
    public init(user: String, refusal: String) {
        self.user = user
        self.refusal = refusal
    }

    /// One line naming the places a password can come from, and the server's refusal.
    public var description: String {
        "no password configured for user '\(user)' (tried: password, password_env, ~/.netrc); "
            + "the server refused the login: \(refusal)"
    }
}
