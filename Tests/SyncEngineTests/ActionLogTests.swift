// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree
import SyncCore
import Testing

@testable import SyncEngine

/// Issue 17: a device's reports are kept in bounded memory, the rest spooled to a scratch file,
/// and every one of them is read back in order.
@Suite struct ActionLogTests {
    /// Report number `index`: every kind and status, renames with `to`, failures with an error,
    /// names with quotes, line breaks and letters beyond ASCII.
    private func report(_ index: Int) -> ActionReport {
        let kind = ActionKind.allCases[index % ActionKind.allCases.count]
        let status = ActionStatus.allCases[index % ActionStatus.allCases.count]
        let renamed = kind == .renameLocal || kind == .renameRemote
        return ActionReport(
            kind: kind, path: "DCIM/\(index)/\"照片\"\n\(index).jpg", to: renamed ? "moved/\(index)" : nil,
            bytes: UInt64(index) * 1000, offset: UInt64(index % 7), status: status,
            error: status == .failed ? "550 refused: \(index)" : nil, sizeKnown: index % 5 != 0)
    }

    @Test func aLogSpillsPastItsBoundAndReadsBackEveryReportInOrder() {
        var log = ActionLog(memoryLimit: 100)
        let expected = (0..<25_000).map(report)
        for report in expected { log.append(report) }
        #expect(log.reportsInMemory < 100)
        #expect(log.count == 25_000)
        #expect(!log.isEmpty)
        #expect(log.first == expected.first)
        #expect(Array(log) == expected)
        for status in ActionStatus.allCases {
            #expect(log.count(status) == expected.filter { $0.status == status }.count)
            #expect(log.filter { $0.status == status } == expected.filter { $0.status == status })
        }
    }

    @Test func aSmallLogStaysInMemory() {
        var log = ActionLog()
        #expect(log.isEmpty && log.first == nil && Array(log).isEmpty)
        log.append(contentsOf: (0..<10).map(report))
        #expect(log.reportsInMemory == 10)
        #expect(Array(log) == (0..<10).map(report))
    }

    @Test func withoutAScratchFileEveryReportStaysInMemory() {
        var log = ActionLog(memoryLimit: 10, spoolFolder: "/nonexistent-\(getpid())")
        log.append(contentsOf: (0..<1_000).map(report))
        #expect(log.reportsInMemory == 1_000)
        #expect(Array(log) == (0..<1_000).map(report))
    }

    @Test func aCopyAppendedToKeepsTheOriginalAsItWas() {
        var original = ActionLog(memoryLimit: 8)
        original.append(contentsOf: (0..<50).map(report))
        var copy = original
        copy.append(report(50))
        #expect(original.count == 50 && Array(original) == (0..<50).map(report))
        #expect(copy.count == 51 && Array(copy) == (0..<51).map(report))
        // Appending while an iterator reads appends to a copy too.
        var iterator = copy.makeIterator()
        copy.append(report(51))
        var read: [ActionReport] = []
        while let next = iterator.next() { read.append(next) }
        #expect(read == (0..<51).map(report))
        #expect(Array(copy) == (0..<52).map(report))
    }

    @Test func aLogEncodesAsTheArrayOfItsReports() throws {
        var log = ActionLog(memoryLimit: 16)
        let reports = (0..<100).map(report)
        log.append(contentsOf: reports)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(try encoder.encode(log) == encoder.encode(reports))
        var device = DeviceReport(name: "cam")
        device.actions = log
        let object = try JSONSerialization.jsonObject(with: try encoder.encode(device)) as? [String: Any]
        #expect((object?["actions"] as? [Any])?.count == 100)
    }

    @Test func aDamagedRecordEndsTheReadingWithoutTrapping() {
        var bytes: [UInt8] = []
        ActionReportRecord.append(report(3), to: &bytes)
        guard case .report(let read, let next) = ActionReportRecord.read(bytes, at: 0) else {
            Issue.record("the record did not read back")
            return
        }
        #expect(read == report(3) && next == bytes.count)
        for cut in 0..<bytes.count {
            guard case .incomplete = ActionReportRecord.read(Array(bytes[..<cut]), at: 0) else {
                Issue.record("a record cut at \(cut) read as whole")
                continue
            }
        }
        var wrongKind = bytes
        wrongKind[4] = 200
        guard case .damaged = ActionReportRecord.read(wrongKind, at: 0) else {
            Issue.record("an unknown kind was read")
            return
        }
        var longPath = bytes
        longPath[4 + 19] = 0xFF  // the path's length beyond the body
        guard case .damaged = ActionReportRecord.read(longPath, at: 0) else {
            Issue.record("a path longer than its record was read")
            return
        }
        let huge: [UInt8] = [0xFF, 0xFF, 0xFF, 0x7F]
        guard case .damaged = ActionReportRecord.read(huge, at: 0) else {
            Issue.record("a record of 2 GiB was waited for")
            return
        }
    }

    @Test func aScratchFileLeavesNoNameBehind() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scratch-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try #require(ScratchFile.anonymous(in: folder))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        try file.append([1, 2, 3])
        try file.append([4])
        #expect(try file.read(at: 1, count: 10) == [2, 3, 4])
        #expect(ScratchFile.anonymous(in: folder + "/missing") == nil)
    }
}
