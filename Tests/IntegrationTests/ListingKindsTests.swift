// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import Testing

/// Issue 16, "`ftpsync ls --json` of each kind of line gives the right type, size and time": every
/// entry of Fixtures/listing-kinds/*.json is served as a LIST reply by a scripted server (no
/// MLSD; the device's time zone UTC, its encoding as the entry says; SIZE answers the entry's
/// size), and the built `ftpsync ls --json` must print its name, type, size and time.
/// Addresses 127.0.22.10–99 (one server per fixture file and encoding).
@Suite(.serialized) struct ListingKindsTests {
    /// One entry of a fixture file (the format of notes/common16.md).
    struct Kind: Sendable, CustomStringConvertible {
        var file: String
        var kind: String
        var encoding: String?
        var line: String
        var name: String
        var type: String
        var size: UInt64?
        var modified: String?
        var description: String { "\(file): \(kind)" }
    }

    static let folder = packageRoot + "/Tests/IntegrationTests/Fixtures/listing-kinds"

    /// Every entry of every `*.json` in `folder`.
    static func kinds() throws -> [Kind] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }
            .sorted()
        return try names.flatMap { name -> [Kind] in
            let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
            let items = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
            return items.map { item in
                Kind(
                    file: name, kind: item["kind"] as? String ?? "?", encoding: item["encoding"] as? String,
                    line: item["line"] as? String ?? "", name: item["name"] as? String ?? "",
                    type: item["type"] as? String ?? "", size: (item["size"] as? NSNumber)?.uint64Value,
                    modified: item["modified"] as? String)
            }
        }
    }

    @Test func everyKindOfLineReadsAsTheFixtureSays() throws {
        let kinds = try Self.kinds()
        #expect(kinds.contains { $0.file == "control.json" })
        let work = try makeTemporaryFolder("listing-kinds")
        // One server per fixture file and encoding; each entry in a folder of its own.
        let groups = Dictionary(grouping: kinds.indices) { "\(kinds[$0].file) \(kinds[$0].encoding ?? "")" }
        for (number, key) in groups.keys.sorted().enumerated() {
            let indices = groups[key] ?? []
            var folders: [String: [String]] = [:]
            var files: [String: UInt64] = [:]
            for index in indices {
                folders["/k\(index)"] = [kinds[index].line]
                if let size = kinds[index].size { files["/k\(index)/\(kinds[index].name)"] = size }
            }
            let server = try ListingServer(
                ["folders": folders, "files": files, "features": ["SIZE"]], address: "127.0.22.\(10 + number)")
            defer { server.stop() }
            let place = work + "/\(number)"
            try FileManager.default.createDirectory(atPath: place, withIntermediateDirectories: true)
            let config = try server.config(local: place + "/mirror", at: place, encoding: kinds[indices[0]].encoding)
            for index in indices {
                let kind = kinds[index]
                let result = try ftpsync(["ls", config, "cam:/k\(index)", "--json"])
                let shown = listedEntries(result.stdout)
                #expect(result.status == 0, "\(kind): \(result.stderr)")
                #expect(shown.count == 1, "\(kind): \(result.stdout)\(result.stderr)")
                guard let entry = shown.first else { continue }
                #expect(entry.name == kind.name, "\(kind)")
                #expect(entry.type == kind.type, "\(kind)")
                #expect(entry.size == kind.size, "\(kind)")
                #expect(entry.modified == kind.modified, "\(kind)")
            }
        }
    }
}
