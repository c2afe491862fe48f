// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failure of the state database.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// SQLite refused: its result code, its message, and what was being done.
    case sqlite(code: Int32, message: String, context: String)
    /// A row holds a value that cannot be what ftpsync wrote (e.g. an invalid path).
    case corrupt(String)
    /// The database was written by a newer ftpsync (schema version `found`, this one knows `supported`).
    case newerSchema(found: Int, supported: Int)
    /// The store was closed before this call.
    case closed
    /// A folder or file for the store could not be made: path and `errno`.
    case fileSystem(operation: String, path: String, code: Int32)

    /// The failure as one line of text, starting "state database:".
    public var description: String {
        switch self {
        case .sqlite(let code, let message, let context):
            let fix = StoreError.fix(code).map { "; " + $0 } ?? ""
            return "state database: \(StoreError.oneLine(context)): \(message) (SQLite code \(code))\(fix)"
        case .corrupt(let what):
            return "state database: unexpected content: \(what)"
        case .newerSchema(let found, let supported):
            return "state database: schema version \(found) is newer than this ftpsync supports (\(supported))"
        case .closed:
            return "state database: used after close"
        case .fileSystem(let operation, let path, let code):
            return "state database: \(operation) \(path): \(String(cString: strerror(code)))"
        }
    }
}

extension StoreError {
    /// `context` (an SQL statement, or what was done) on one line: its runs of white space as
    /// one space, cut after 80 characters.
    static func oneLine(_ context: String) -> String {
        let words = context.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return words.count > 80 ? String(words.prefix(80)) + "…" : words
    }

    /// What to do about the SQLite result `code` (its primary code), when there is a fix.
    static func fix(_ code: Int32) -> String? {
        switch code & 0xff {
        case 5, 6: "another process is using the state database: let it finish and run again"
        case 8, 14: "check that .ftpsync/state.sqlite and its folder can be written"
        case 10: "the disk could not be read or written: check it and run again"
        case 11, 26:
            "the state database is damaged: move .ftpsync/state.sqlite aside and run again (files found in sync"
                + " are adopted, nothing is copied twice)"
        case 13: "the disk is full: free some space and run again"
        default: nil
        }
    }
}

/// The folder holding ftpsync's own files: `<localRoot>/.ftpsync`.
enum StateFolder {
    static let name = ".ftpsync"

    static func path(localRoot: String) -> String {
        localRoot.hasSuffix("/") ? localRoot + name : localRoot + "/" + name
    }

    /// Makes `<localRoot>/.ftpsync` and any missing parents; returns its path.
    static func make(localRoot: String) throws(StoreError) -> String {
        let folder = path(localRoot: localRoot)
        var prefix = folder.hasPrefix("/") ? "/" : ""
        for part in folder.split(separator: "/") {
            prefix += part
            if mkdir(prefix, 0o777) != 0 && errno != EEXIST {
                throw .fileSystem(operation: "mkdir", path: prefix, code: errno)
            }
            prefix += "/"
        }
        return folder
    }
}
