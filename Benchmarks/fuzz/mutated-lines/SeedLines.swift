// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

// The seed lines of the mutated-lines run: every listing line the project's tests know.
import Foundation

/// One seed: a line's bytes (no CR LF) and the format it was written for.
struct SeedLine {
    var bytes: [UInt8]
    var mlsd: Bool
}

/// Collects seed lines from files and folders: `.txt` files line by line; `.json` files by
/// every string under a key `line` (with `\xNN` for raw bytes, as in the parity and
/// listing-kinds fixtures) or `input` (whole listings, as in ftp-cases.json), split at LF.
/// A JSON object whose `format` is `mlsd` (or whose `category` names MLSD) gives MLSD seeds.
enum SeedLines {
    /// Every seed under `paths` (files, or folders searched recursively), in a stable order;
    /// paths that do not exist are skipped.
    static func collect(from paths: [String]) -> [SeedLine] {
        var seeds: [SeedLine] = []
        for path in paths {
            for file in files(under: path) {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                if file.hasSuffix(".txt") {
                    seeds += lines(of: [UInt8](data)).map { SeedLine(bytes: $0, mlsd: file.contains("mlsd")) }
                } else if file.hasSuffix(".json"), let object = try? JSONSerialization.jsonObject(with: data) {
                    walk(object, mlsd: false, into: &seeds)
                }
            }
        }
        return seeds.filter { !$0.bytes.isEmpty }
    }

    /// The files under `path` (itself when it is a file), sorted.
    private static func files(under path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return [] }
        guard isFolder.boolValue else { return [path] }
        let found = FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []
        return found.sorted().map { path + "/" + $0 }.filter { $0.hasSuffix(".txt") || $0.hasSuffix(".json") }
    }

    private static func walk(_ value: Any, mlsd: Bool, into seeds: inout [SeedLine]) {
        if let array = value as? [Any] {
            for item in array { walk(item, mlsd: mlsd, into: &seeds) }
            return
        }
        guard let object = value as? [String: Any] else { return }
        let format = (object["format"] as? String ?? object["category"] as? String ?? "").lowercased()
        let isMLSD = mlsd || format.contains("mlsd") || format.contains("mlst")
        if let line = object["line"] as? String {
            seeds.append(SeedLine(bytes: unescaped(line), mlsd: isMLSD))
        }
        if let input = object["input"] as? String {
            seeds += lines(of: unescaped(input)).map { SeedLine(bytes: $0, mlsd: isMLSD) }
        }
        for (key, item) in object where key != "line" && key != "input" {
            walk(item, mlsd: isMLSD, into: &seeds)
        }
    }

    /// `text` as bytes, each `\xNN` (two hex digits) turned into that byte.
    static func unescaped(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\"), index + 3 < bytes.count, bytes[index + 1] == UInt8(ascii: "x"),
                let high = hexValue(bytes[index + 2]), let low = hexValue(bytes[index + 3])
            {
                out.append(high << 4 | low)
                index += 4
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The lines of `bytes`, split at LF, one trailing CR removed.
    static func lines(of bytes: [UInt8]) -> [[UInt8]] {
        bytes.split(separator: 10).map { $0.last == 13 ? Array($0.dropLast()) : Array($0) }
    }
}
