// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import SyncStore
import Testing

@Suite struct UploadIntentStoreTests {
    @Test func intentsRoundTripPerDeviceAndAreRemoved() throws {
        let folder = try TempFolder()
        let store = try StateStore.open(localRoot: folder.path)
        let path = try RelativePath(validating: "DCIM/中文 clip.bin")
        let intent = UploadIntent(
            path: path, temporaryName: "/DCIM/.中文 clip.bin.ftpsync-part", localSize: UInt64(Int64.max) + 7,
            localModified: FileTime(seconds: 1_700_000_000.25, granularity: .exact), digest: "0123abcd",
            sentSize: 42, timeToSet: Date(timeIntervalSince1970: 1_700_000_000),
            stored: Date(timeIntervalSince1970: 1_800_000_000.5))
        try store.setUploadIntent(intent, device: "cam")
        var other = intent
        other.digest = nil
        try store.setUploadIntent(other, device: "other")
        #expect(try store.uploadIntents(device: "cam") == [path: intent])
        #expect(try store.uploadIntents(device: "other") == [path: other])
        try store.removeUploadIntent(path: path, device: "cam")
        #expect(try store.uploadIntents(device: "cam").isEmpty)
        #expect(try store.uploadIntents(device: "other").count == 1)
    }
}
