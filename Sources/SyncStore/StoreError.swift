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
            return "state database: \(context): \(message) (SQLite code \(code))"
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
