// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPListing

/// The bytes of one directory listing and the command that produced them.
public struct RawListing: Sendable, Equatable {
    /// MLSD or LIST.
    public var format: ListingFormat
    /// The data connection's bytes, unparsed.
    public var bytes: [UInt8]
    /// Why the listing is incomplete although it completed, as a phrase: the final reply when
    /// the server says so (`the server answered '226 Output truncated to 2000 matches'`,
    /// Pure-FTPd; vsftpd's `226 Transfer done (but failed to open directory).`), or a STAT
    /// listing cut at the size bound; nil otherwise.
    public var truncation: String? = nil
}
