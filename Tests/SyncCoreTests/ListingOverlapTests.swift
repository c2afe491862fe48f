// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Testing

@testable import SyncCore

/// `ListingOverlap`: when a listing is another tree than the recorded one (issue 14 item 18).
struct ListingOverlapTests {
    typealias F = Fixture

    /// Records of `count` files `IMG_N.JPG` of size 100 + N.
    static func records(_ count: Int) -> [RelativePath: FileRecord] {
        F.records(
            (0..<count).map {
                (F.listed("IMG_\($0).JPG", 100 + UInt64($0), 1_000), F.local("IMG_\($0).JPG", 100 + UInt64($0), 1_000))
            })
    }

    /// (records, listed files kept with their recorded size, listed files resized, new files, another tree?)
    @Test(arguments: [
        (30, 30, 0, 0, false),  // the same tree
        (30, 0, 0, 25, true),  // another camera: nothing recorded is there
        (30, 2, 0, 25, true),  // 2 of 30 (< 10 %) found again
        (30, 0, 2, 25, true),  // 2 of the same name (the same model), other sizes: < 10 %
        (30, 3, 0, 25, false),  // 3 of 30 (10 %): the same device, much removed
        (30, 0, 30, 0, false),  // the same names, every size different: rewritten on the device
        (30, 0, 0, 0, false),  // an emptied card: no tree of its own, left to the delete limit
        (19, 0, 0, 25, false),  // too few records to judge
        (20, 0, 0, 1, true),
    ])
    func anotherTree(records count: Int, kept: Int, resized: Int, new: Int, expected: Bool) {
        var listed = (0..<kept).map { F.listed("IMG_\($0).JPG", 100 + UInt64($0), 1_000) }
        listed += (kept..<(kept + resized)).map { F.listed("IMG_\($0).JPG", 7_000, 1_000) }
        listed += (0..<new).map { F.listed("DSC_\($0).JPG", 50, 2_000) }
        let overlap = ListingOverlap(remote: Snapshot(listed), records: Self.records(count))
        #expect(overlap.isAnotherTree == expected, "\(overlap)")
    }

    /// A renamed folder keeps its files' names and sizes: the same tree.
    @Test func aRenamedFolderIsTheSameTree() {
        let listed = (0..<30).map { F.listed("RENAMED/IMG_\($0).JPG", 100 + UInt64($0), 1_000) }
        let overlap = ListingOverlap(remote: Snapshot(listed), records: Self.records(30))
        #expect(overlap.matched == 30 && overlap.unrecognised == 0 && !overlap.isAnotherTree)
    }

    /// Records below a folder the listing could not read are not counted as missing.
    @Test func unknownFoldersAreNotEvidence() {
        var records = Self.records(0)
        for index in 0..<30 {
            let entry = F.listed("DCIM/IMG_\(index).JPG", 10, 1_000)
            records[entry.path] = F.record(entry, F.local("DCIM/IMG_\(index).JPG", 10, 1_000))
        }
        let listing = Snapshot([F.listed("other.txt", 5, 1_000)], unknown: [F.path("DCIM")])
        let overlap = ListingOverlap(remote: listing, records: records)
        #expect(overlap.records == 0 && !overlap.isAnotherTree)
    }

    /// The folder walk's tally keeps at most its key limit of files not found where recorded,
    /// sampling past it, and judges a huge tree as the exact count does (issue 17).
    @Test(arguments: [(true, false), (false, true)])
    func theTallyOfAHugeTreeIsBoundedAndJudgesAlike(moved: Bool, anotherTree: Bool) {
        var tally = ListingOverlap.Tally(keyLimit: 1_000)
        let folders = 40
        for folder in 0..<folders {
            // Records in `old<folder>`; the device lists the same files (moved) or others in `new<folder>`.
            let records = (0..<500).map { index in
                F.record(
                    F.listed("old\(folder)/IMG_\(folder)_\(index).JPG", 100 + UInt64(index), 1_000),
                    F.local("old\(folder)/IMG_\(folder)_\(index).JPG", 100 + UInt64(index), 1_000))
            }
            tally.add(listing: Snapshot([]), records: records, unknown: false)
            let listed = (0..<500).map { index in
                moved
                    ? F.listed("new\(folder)/IMG_\(folder)_\(index).JPG", 100 + UInt64(index), 1_000)
                    : F.listed("new\(folder)/DSC_\(folder)_\(index).JPG", 7_000 + UInt64(index), 1_000)
            }
            tally.add(listing: Snapshot(listed), records: [], unknown: false)
            #expect(tally.keysKept <= 1_000)
        }
        let overlap = tally.overlap(unknownFolders: [])
        #expect(overlap.records == folders * 500)
        #expect(overlap.isAnotherTree == anotherTree, "\(overlap)")
        if moved { #expect(overlap.matched > folders * 500 / 2, "\(overlap)") }
    }
}
