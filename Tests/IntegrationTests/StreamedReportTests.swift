// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 17: a run with more actions than a device keeps in memory (1,024; the rest go to a
/// scratch file) reports every one of them, in order, in `--json`, the text report, the dry run
/// and the log, and leaves nothing in `$TMPDIR`. Address 127.0.34.2.
@Suite(.serialized) struct StreamedReportTests {
    /// 30 folders of 100 files: 3,030 actions on a first pull.
    private static let folders = 30
    private static let filesPerFolder = 100

    private func actions(_ stdout: String) -> [[String: Any]] {
        let document = (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any]
        let devices = document?["devices"] as? [[String: Any]] ?? []
        return devices.first?["actions"] as? [[String: Any]] ?? []
    }

    @Test func aPullOfThreeThousandFilesReportsEveryAction() throws {
        let work = try makeTemporaryFolder("streamed-report")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let served = work + "/served"
        var expected: [String] = []
        for folder in 0..<Self.folders {
            let name = String(format: "folder%02d", folder)
            try FileManager.default.createDirectory(atPath: served + "/" + name, withIntermediateDirectories: true)
            expected.append("mkdir_local " + name)
            for file in 0..<Self.filesPerFolder {
                let path = name + String(format: "/file%03d.txt", file)
                try writeFile(served + "/" + path, Array("\(path)\n".utf8), modified: 1_700_000_000)
                expected.append("download " + path)
            }
        }
        let server = try FTPServer(.vsftpd, root: served, address: "127.0.34.2")
        defer { server.stop() }
        let config = work + "/device.yaml"
        try ("local: ./mirror\ndevices:\n" + server.deviceYAML(name: "nas")).write(
            toFile: config, atomically: true, encoding: .utf8)
        let scratch = work + "/tmp"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let environment = ["TMPDIR": scratch]

        let dry = try ftpsync(["pull", config, "--dry-run", "--json"], environment: environment, timeout: 300)
        #expect(dry.status == 0, "\(dry.stderr)")
        let planned = actions(dry.stdout)
        #expect(Set(planned.map { "\($0["kind"] ?? "") \($0["path"] ?? "")" }) == Set(expected))
        #expect(planned.count == expected.count && planned.allSatisfy { $0["status"] as? String == "planned" })

        let text = try ftpsync(["pull", config, "--dry-run"], environment: environment, timeout: 300)
        let lines = text.stdout.split(separator: "\n").filter { $0.hasSuffix("[planned]") }
        // The text lists the actions in the plan's order, as the JSON does.
        #expect(
            lines.map { $0.split(separator: " ", omittingEmptySubsequences: true)[1] }
                == planned.map {
                    Substring($0["path"] as? String ?? "")
                })
        #expect(text.stdout.contains("total planned: 3000 files"), "\(text.stdout.suffix(300))")

        let log = work + "/ftpsync.log"
        let pull = try ftpsync(["pull", config, "--json", "--log", log], environment: environment, timeout: 600)
        #expect(pull.status == 0, "\(pull.stderr)")
        let done = actions(pull.stdout)
        #expect(done.count == expected.count && done.allSatisfy { $0["status"] as? String == "done" })
        #expect(Set(done.map { "\($0["kind"] ?? "") \($0["path"] ?? "")" }) == Set(expected))
        let logged = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(logged.filter { $0.contains(" done") && $0.contains("pull nas: ") }.count == expected.count)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty)
    }
}
