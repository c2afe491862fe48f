// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

@testable import FTPSyncCLI

/// The metrics file is replaced whole (a temporary in its folder, renamed over it), readable by
/// others, never written through a symlink, and a failure leaves nothing.
@Suite(.serialized) struct MetricsFileTests {
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "ftpsync-metrics-file-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func names(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    /// (The umask is the process's: MetricsScrapeTests runs the binary under `umask 077`.)
    @Test func theFileIsReplacedWholeWithMode0644() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/ftpsync.prom"
        try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o600)
        try MetricsFile.write("new\n", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o644)
        #expect(Self.names(folder) == ["ftpsync.prom"])
    }

    @Test func aSymlinkAtTheNameIsReplacedNotFollowed() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let target = folder + "/elsewhere"
        try "keep\n".write(toFile: target, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder + "/ftpsync.prom", withDestinationPath: target)
        try MetricsFile.write("new\n", to: folder + "/ftpsync.prom")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep\n")
        let type =
            try FileManager.default.attributesOfItem(atPath: folder + "/ftpsync.prom")[.type] as? FileAttributeType
        #expect(type == .typeRegular)
    }

    @Test func aMissingFolderIsOneLineWithTheFileTheReasonAndTheFix() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/gone/ftpsync.prom"
        #expect {
            try MetricsFile.write("x\n", to: path)
        } throws: { error in
            let line = (error as? MetricsFileError)?.description ?? ""
            return line.contains("cannot write the metrics file \(path)") && line.contains("No such file or directory")
                && line.contains("create the folder \(folder)/gone") && line.contains("exit code is unchanged")
                && !line.contains("\n")
        }
    }

    /// A folder at the name: the rename fails and the temporary is removed.
    @Test func aFailedRenameLeavesNoTemporary() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/ftpsync.prom", withIntermediateDirectories: false)
        try FileManager.default.createDirectory(
            atPath: folder + "/ftpsync.prom/inside", withIntermediateDirectories: false)
        #expect {
            try MetricsFile.write("x\n", to: folder + "/ftpsync.prom")
        } throws: { error in
            (error as? MetricsFileError)?.description.contains("ftpsync.prom is a folder: give") == true
        }
        #expect(Self.names(folder) == ["ftpsync.prom"])
    }

    /// A temporary of a process that is gone is removed; one of a live process stays.
    @Test func aKilledRunsTemporaryIsRemovedByTheNextWrite() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var gone: pid_t = 0
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { free(argv[0]) }
        #expect(posix_spawn(&gone, "/bin/true", nil, nil, &argv, nil) == 0)
        var status: Int32 = 0
        waitpid(gone, &status, 0)
        let left = ".ftpsync-metrics-\(gone)-1a2b3c4d.tmp"
        let live = ".ftpsync-metrics-1-1a2b3c4d.tmp"
        for name in [left, live] { try "x\n".write(toFile: folder + "/" + name, atomically: false, encoding: .utf8) }
        try MetricsFile.write("new\n", to: folder + "/ftpsync.prom")
        #expect(Self.names(folder) == [live, "ftpsync.prom"].sorted())
    }

    @Test func aBareNameIsInTheWorkingFolder() {
        #expect(MetricsFile.split("m.prom") == (".", "m.prom"))
        #expect(MetricsFile.split("/m.prom") == ("/", "m.prom"))
        #expect(MetricsFile.split("/var/lib/x/m.prom") == ("/var/lib/x", "m.prom"))
    }
}
