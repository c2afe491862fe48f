// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import Testing

@Suite struct UploadIntentTests {
    typealias F = Fixture
    /// Sent 1000 bytes of a local file dated 500; the intent was stored at 100,000 and the
    /// upload sets the time 500.
    let intent = UploadIntent(
        path: Fixture.path("f"), temporaryName: "/.f.ftpsync-part", localSize: 1000,
        localModified: FileTime(seconds: 500.5, granularity: .exact), digest: "d", sentSize: 1000,
        timeToSet: Date(timeIntervalSince1970: 500), stored: Date(timeIntervalSince1970: 100_000))

    /// (device size, device time, granularity, sample, ours)
    @Test(arguments: [
        (1000 as UInt64, 100_030.0, TimeGranularity.second, UploadIntent.Sample.unavailable, true),  // written after
        (1000, 99_999.0, .second, .unavailable, true),  // within the clock slack
        (1000, 99_960.0, .minute, .unavailable, true),  // LIST's minute that holds the intent
        (1000, 500.0, .second, .unavailable, true),  // the time the upload sets (MFMT done)
        (1000, 50_000.0, .second, .unavailable, false),  // older: someone else's file
        (1000, 50_000.0, .second, .matched, true),  // the bytes say it is ours whatever the clock
        (1000, 100_030.0, .second, .mismatched, false),  // the bytes say it is not
        (999, 100_030.0, .second, .matched, false),  // the size must be what was sent
    ])
    func theDeviceFileIsOursOnlyWithEvidence(
        size: UInt64, time: Double, granularity: TimeGranularity, sample: UploadIntent.Sample, ours: Bool
    ) {
        let entry = SnapshotEntry(
            path: F.path("f"), kind: .file, size: size, modified: FileTime(seconds: time, granularity: granularity))
        let record = intent.reconcile(remote: entry, sample: sample)
        #expect((record != nil) == ours)
        if let record {
            #expect(record.remoteSize == size)
            #expect(record.remoteModified == entry.modified)
            #expect(record.localSize == 1000)
            #expect(record.localModified == intent.localModified)
            #expect(record.digest == "d")
        }
    }

    @Test func aMissingFileOrAFolderIsNotOurs() {
        #expect(intent.reconcile(remote: nil, sample: .unavailable) == nil)
        #expect(intent.reconcile(remote: F.folder("f"), sample: .matched) == nil)
    }

    static let half = UInt64.max / 2
    static let rangeCases: [(UInt64, [Range<UInt64>])] = [
        (0, []),
        (10, [0..<10]),
        (12288, [0..<12288]),
        (100_000, [0..<4096, 47952..<52048, 95904..<100_000]),
        (UInt64.max, [0..<4096, (half - 2048)..<(half + 2048), (UInt64.max - 4096)..<UInt64.max]),
    ]

    @Test(arguments: rangeCases)
    func sampleRangesCoverHeadMiddleAndTailWithoutOverflow(size: UInt64, expected: [Range<UInt64>]) {
        #expect(UploadIntent.sampleRanges(size: size) == expected)
    }
}
