// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@testable import SyncStore

/// Issue 20: the ranges of a download fetched in segments, and their row in the state.
struct ByteSegmentTests {
    @Test func theRangesRoundTripAndOnlyWholeCoversAreTaken() {
        var segments = [
            ByteSegment(start: 0, end: 334), ByteSegment(start: 334, end: 667), ByteSegment(start: 667, end: 1_000),
        ]
        segments[1].done = 100
        let text = ByteSegment.encode(segments)
        #expect(text == "0-334-0,334-667-100,667-1000-0")
        #expect(ByteSegment.decode(text, size: 1_000) == segments)
        for bad in [
            "0-334-0,334-667-100", "0-334-0,335-1000-0", "0-334-400,334-1000-0", "x", "", "0-1000",
            "0-500-0,400-1000-0", "10-1000-0",
        ] {
            #expect(ByteSegment.decode(bad, size: 1_000) == nil, "\(bad)")
        }
    }

    @Test func aPartialRowKeepsItsRangesAndTheirProgress() throws {
        let folder = try TempFolder()
        let store = try StateStore.open(localRoot: folder.path)
        defer { store.close() }
        let path = try RelativePath(validating: "clip.mov")
        var partial = StoredPartial(
            transfer: PartialTransfer(path: path, remoteSize: 1_000, remoteModified: nil, bytesDone: 0),
            tempName: "/x/y.seg")
        partial.segments = "0-500-0,500-1000-0"
        try store.setPartial(partial, device: "cam")
        #expect(try store.partials(device: "cam")[path]?.segments == "0-500-0,500-1000-0")
        #expect(
            try store.updatePartialSegments(path: path, device: "cam", segments: "0-500-10,500-1000-20", bytesDone: 30))
        let row = try #require(try store.partials(device: "cam")[path])
        #expect(row.segments == "0-500-10,500-1000-20" && row.transfer.bytesDone == 30)
    }
}
