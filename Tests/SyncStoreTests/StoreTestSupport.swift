// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

@testable import SyncStore

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh temporary folder for one test, removed on deinit.
final class TempFolder {
    let path: String

    init() throws {
        var template = Array("/tmp/syncstore-test-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(.EIO) }
        path = String(cString: made)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

struct Boom: Error, Equatable {}

/// A state database in `folder` as schema `version` left it (the migrations before it applied),
/// open for the test to fill; `StateStore.open(localRoot:)` then migrates the rest.
func stateAtVersion(_ version: Int, in folder: String) throws -> SQLiteConnection {
    try FileManager.default.createDirectory(atPath: folder + "/.ftpsync", withIntermediateDirectories: true)
    let connection = try SQLiteConnection(path: folder + "/.ftpsync/state.sqlite")
    try connection.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    for migration in StateStore.migrations[..<version] {
        for sql in migration { try connection.execute(sql) }
    }
    try connection.execute("INSERT INTO schema_version (version) VALUES (\(version))")
    return connection
}
