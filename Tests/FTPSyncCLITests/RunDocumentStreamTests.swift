// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore
import SyncEngine
import Testing

@testable import FTPSyncCLI

/// Issue 17: `--json` and the text report are written in pieces as the devices' logs are read,
/// and the pieces make exactly the document the encoder makes of the whole.
@Suite struct RunDocumentStreamTests {
    private static let started = Date(timeIntervalSince1970: 1_800_000_000)

    /// Report number `index` of a device: transfers, renames (with `to`), failures (with an
    /// error holding quotes, a backslash and a C1 control), names beyond ASCII.
    private static func report(_ index: Int, status: ActionStatus) -> ActionReport {
        let kind = ActionKind.allCases[index % ActionKind.allCases.count]
        let renamed = kind == .renameLocal || kind == .renameRemote
        let failed = status == .failed && index % 3 == 0
        return ActionReport(
            kind: kind, path: "2026/\(index % 100)/IMG_\(index) \"é\".jpg", to: renamed ? "moved/\(index).jpg" : nil,
            bytes: UInt64(index) * 4096, offset: UInt64(index % 2) * 100, status: failed ? .failed : status,
            error: failed ? "550 \\ \"no\"\u{85} \(index)" : nil)
    }

    private static func device(_ name: String, actions: Int, status: ActionStatus = .done) -> DeviceReport {
        var device = DeviceReport(name: name)
        for index in 0..<actions {
            let report = report(index, status: status)
            device.actions.append(report)
            device.stats.count(report, transferred: report.bytes)
        }
        device.note("kept \(name)/old.jpg")
        if actions > 0 { device.skip(path: "bad\u{1}name", reason: "unsafe name") }
        device.settleSkipped()
        device.unchanged = 7
        return device
    }

    private static func document(_ devices: [DeviceReport], dryRun: Bool = false) -> RunDocument {
        RunDocument(
            command: "pull", dryRun: dryRun, devices: devices, started: started,
            finished: started.addingTimeInterval(12.3456), exitCode: 1)
    }

    @Test func theStreamedDocumentIsTheEncodersByteForByte() {
        var failed = DeviceReport(name: "offline")
        failed.status = .failed
        failed.error = "cannot connect: \"refused\""
        let documents = [
            Self.document([]),
            Self.document([Self.device("cam", actions: 0)]),
            Self.document([Self.device("cam", actions: 1), failed]),
            Self.document([Self.device("cam", actions: 30), Self.device("phone", actions: 0), failed]),
            Self.document(
                [Self.device("cam", actions: RunDocument.actionBatch * 2 + 1, status: .planned)], dryRun: true),
            RunDocument(command: "push", dryRun: false, devices: [], error: "lock held", exitCode: 3),
        ]
        for document in documents {
            #expect(streamedJSON(document) == jsonText(document))
        }
    }

    @Test func fiftyThousandReportsMakeOneDocumentAsJSONSerializationMakesIt() throws {
        let devices = [Self.device("cam", actions: 30_000), Self.device("phone", actions: 20_000)]
        let document = Self.document(devices)
        let streamed = streamedJSON(document)
        #expect(streamed == jsonText(document))
        // The same data as Foundation objects, through JSONSerialization.
        func object(_ report: ActionReport) -> [String: Any] {
            var object: [String: Any] = [
                "kind": report.kind.rawValue, "path": report.path, "bytes": report.bytes, "offset": report.offset,
                "status": report.status.rawValue, "error": report.error ?? NSNull(),
            ]
            if let to = report.to { object["to"] = to }
            return object
        }
        func stats(_ s: RunStats) -> [String: Any] {
            [
                "files_transferred": s.filesTransferred, "bytes_transferred": s.bytesTransferred, "deleted": s.deleted,
                "renamed": s.renamed, "failed": s.failed,
            ]
        }
        let expected: [String: Any] = [
            "command": "pull", "dry_run": false, "error": NSNull(), "totals": stats(document.totals),
            "started": document.started, "finished": document.finished, "duration_seconds": 12.346, "exit_code": 1,
            "version": document.version, "stopped_by": NSNull(), "shard": NSNull(),
            "devices": devices.map { device in
                [
                    "name": device.name, "status": device.status.rawValue, "error": device.error ?? NSNull(),
                    "actions": device.actions.map(object), "stats": stats(device.stats), "notes": device.notes,
                    "skipped": device.skipped.map { ["path": $0.path, "reason": $0.reason] }, "left": NSNull(),
                ] as [String: Any]
            },
        ]
        let serialized = try JSONSerialization.data(withJSONObject: expected)
        let parsedExpected = try JSONSerialization.jsonObject(with: serialized) as? NSDictionary
        let parsed = try JSONSerialization.jsonObject(with: Data(streamed.utf8)) as? NSDictionary
        #expect(parsed != nil && parsed == parsedExpected)
        #expect(((parsed?["devices"] as? [NSDictionary])?.first?["actions"] as? [Any])?.count == 30_000)
    }

    @Test func piecesInChunksMaskSecretsAsTheWholeDocumentDoes() {
        let filter = OutputFilter()
        filter.protect(["s3cr3t-\"pw\""])
        var device = Self.device("cam", actions: 2_000)
        device.error = "530 PASS s3cr3t-\"pw\" refused"
        device.actions.append(ActionReport(kind: .download, path: "s3cr3t-\"pw\".jpg", status: .done))
        let document = Self.document([device])
        var chunks: [String] = []
        let sink: (String) -> Void = { chunks.append(filter.json($0)) }
        writeInChunks(limit: 4096, to: sink) { document.writeJSON($0) }
        #expect(chunks.count >= 4)
        #expect(chunks.joined() == filter.json(jsonText(document)))
        #expect(!chunks.joined().contains("s3cr3t"))
    }

    @Test func theTextReportIsWrittenLineByLine() {
        let document = Self.document([Self.device("cam", actions: 3_000, status: .planned)], dryRun: true)
        var pieces: [String] = []
        writeTextReport(document, elapsed: 1) { pieces.append($0) }
        #expect(pieces.count > 3_000)
        #expect(pieces.allSatisfy { $0.hasSuffix("\n") && $0.dropLast().allSatisfy { $0 != "\n" } })
        #expect(pieces.last?.hasPrefix("total planned: ") == true)
    }
}
