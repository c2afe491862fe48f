// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// How a `LIST -a` listing (dot files too) is judged: which outcomes mean the server did not
/// understand `-a` and plain `LIST` is to be tried, and which of those settle it for the server.
/// vsftpd (`force_dot_files=NO`, its default), Pure-FTPd and ProFTPD take `-a` as an option;
/// others take `LIST -a` as a listing of a path named `-a` or refuse the argument.
enum HiddenListing {
    /// The argument of `LIST -a` for `path` (empty: the current folder).
    static func argument(for path: String) -> String { path.isEmpty ? "-a" : "-a \(path)" }

    /// True when a reply code to `LIST -a` calls for plain `LIST`: 500/501 (the argument is
    /// refused), 450/550 (no such folder: `-a` may have been taken as a path).
    static func retriesPlain(afterReply code: Int) -> Bool { [450, 500, 501, 550].contains(code) }

    /// True when the server is taken not to understand `-a`, from the `LIST -a` outcome and
    /// the plain `LIST` that followed it: a refusal (500/501) whatever `LIST` gave; a missing
    /// folder (450/550, `optionReply`) or an empty listing (`optionReply` nil) only when plain
    /// `LIST` showed entries (else the folder may be just empty, and `-a` is kept).
    static func settlesPlain(optionReply code: Int?, plainIsEmpty: Bool) -> Bool {
        if let code, [500, 501].contains(code) { return true }
        return !plainIsEmpty
    }

    /// Longest listing that may still be empty, in bytes (a few `total 0` lines); longer ones
    /// are taken to hold entries without being read.
    static let emptyListingLimit = 4096

    /// True when `bytes` (a LIST reply) holds no entry: only blank lines and `total N` lines.
    static func isEmpty(_ bytes: [UInt8]) -> Bool {
        guard bytes.count <= emptyListingLimit else { return false }
        let lines = bytes.split { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
        return lines.allSatisfy { line in
            let trimmed = line.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            return trimmed.isEmpty || trimmed.starts(with: Array("total ".utf8))
        }
    }
}

/// Servers that did not understand `LIST -a`: later connections send plain `LIST`.
enum PlainListServers {
    static let shared = ServerQuirkMemory()
}
