// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@testable import LocalTree

/// File times far outside 1677…2262 (what Int64 nanoseconds hold) saturate instead of trapping.
@Suite struct NanosecondsTests {
    @Test(arguments: [
        (Int(1_700_000_000), 5, Int64(1_700_000_000_000_000_005)),
        (Int(10_413_792_000), 0, Int64.max),  // year 2300
        (Int(-10_000_000_000), 0, Int64.min),  // year 1653
    ])
    func saturates(seconds: Int, nanos: Int, expected: Int64) {
        #expect(nanoseconds(timespec(tv_sec: seconds, tv_nsec: nanos)) == expected)
    }

    @Test(arguments: [(1e300, Int64(100_000_000_000)), (-1e300, -100_000_000_000), (.nan, 0), (1.5, 1)])
    func listedSecondsAreClamped(seconds: Double, whole: Int64) {
        #expect(timespecParts(seconds).seconds == whole)
    }

    @Test func aFarFutureTimeCanBeSetAndRead() throws {
        let file = NSTemporaryDirectory() + "ftpsync-far-\(UUID().uuidString)"
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let files = LocalFileSystem()
        try files.setModificationTime(FileTime(seconds: 10_413_792_000, granularity: .second), at: file)
        let status = try #require(try files.status(at: file))
        #expect(status.identity.mtimeNanoseconds == Int64.max)
    }
}
