import Foundation
import SyncCore
import Testing

@testable import SyncStore

/// Issue 20: the ranges of a download fetched in segments, and their row in the state.
struct ByteSegmentTests {
    @Test(
        arguments: [
            (UInt64(10), 4, [(0, 3), (3, 6), (6, 8), (8, 10)]),
            (UInt64(8), 4, [(0, 2), (2, 4), (4, 6), (6, 8)]),
            (UInt64(3), 4, [(0, 1), (1, 2), (2, 3)]),  // no empty range
            (UInt64(100), 1, [(0, 100)]),
            (UInt64(100), 0, [(0, 100)]),
        ] as [(UInt64, Int, [(UInt64, UInt64)])])
    func aSizeIsCutIntoNearlyEqualRanges(size: UInt64, count: Int, ranges: [(UInt64, UInt64)]) {
        let segments = ByteSegment.split(size: size, into: count)
        #expect(segments.map(\.start) == ranges.map(\.0))
        #expect(segments.map(\.end) == ranges.map(\.1))
        #expect(segments.allSatisfy { $0.done == 0 })
    }

    @Test func theRangesRoundTripAndOnlyWholeCoversAreTaken() {
        var segments = ByteSegment.split(size: 1_000, into: 3)
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
