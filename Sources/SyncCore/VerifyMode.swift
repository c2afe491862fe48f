// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// How transfers are checked against the server's own hash of the file (`verify`, a device
/// key): `HASH` (draft-bryan-ftpext-hash) or `XSHA256`, `XSHA1`, `XMD5`, `XCRC`.
public enum VerifyMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Each download and upload is checked when the server offers a hash; one it cannot check
    /// is accepted on its size (the default).
    case auto
    /// Each download and upload must be checked: a device whose server offers no hash fails,
    /// and so does a file the server cannot hash.
    case required
    /// No hash is asked for (a slow device, whose hashing reads the whole file from its disk).
    case off
}
