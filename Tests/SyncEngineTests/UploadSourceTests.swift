// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree
import Testing

@testable import SyncEngine

/// `LocalFileReader` as an `UploadSource`: reads at explicit offsets.
struct UploadSourceTests {
    @Test func readsAtTheOffsetAskedAndZeroAtTheEnd() throws {
        let path = NSTemporaryDirectory() + "upload-source-\(UUID().uuidString.prefix(8))"
        try Data(bytes(1000)).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source: UploadSource = try LocalFileReader(path: path)
        var buffer = [UInt8](repeating: 0, count: 100)
        let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0, at: 950) }
        #expect(count == 50)
        #expect(Array(buffer[0..<50]) == Array(bytes(1000)[950...]))
        #expect(try buffer.withUnsafeMutableBytes { try source.read(into: $0, at: 1000) } == 0)
    }
}
