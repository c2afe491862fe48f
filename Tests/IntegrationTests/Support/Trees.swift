// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// A file to put in a served tree: its path, content and modification time.
struct SampleFile {
    var path: String
    var content: [UInt8]
    /// Seconds since 1970, UTC.
    var modified: Double
}

/// Deterministic pseudo-random bytes (xorshift), so runs are repeatable.
func pseudoRandomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var state = seed | 1
    var bytes = [UInt8](repeating: 0, count: count)
    for i in 0..<count {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        bytes[i] = UInt8(truncatingIfNeeded: state)
    }
    return bytes
}

/// The tree of issue 2: nested folders, spaces, Chinese characters, a leading dash, a semicolon,
/// an empty folder, a 0-byte file and a few MB of random data. Times are recent whole minutes
/// (so LIST gives minute precision) a few days before `now`.
func sampleTree(now: Date = Date()) -> (files: [SampleFile], emptyFolders: [String]) {
    let base = (now.timeIntervalSince1970 / 60).rounded(.down) * 60 - 3 * 86_400
    let files = [
        SampleFile(path: "readme.txt", content: Array("hello from the device\n".utf8), modified: base),
        SampleFile(path: "DCIM/2024/img 0001.jpg", content: pseudoRandomBytes(300_000, seed: 1), modified: base - 60),
        SampleFile(
            path: "DCIM/2024/deep/er/nested.bin", content: pseudoRandomBytes(1000, seed: 2), modified: base - 120),
        SampleFile(path: "中文 目录/照片.txt", content: Array("相机\n".utf8), modified: base - 180),
        SampleFile(path: "-leading-dash.txt", content: Array("dash\n".utf8), modified: base - 240),
        SampleFile(path: "semi;colon;name.txt", content: Array("semi\n".utf8), modified: base - 300),
        SampleFile(path: "zero-bytes.bin", content: [], modified: base - 360),
        SampleFile(path: "video/random-3MB.bin", content: pseudoRandomBytes(3_145_728, seed: 3), modified: base - 420),
    ]
    return (files, ["empty-folder", "DCIM/also empty"])
}

/// Writes `files` and `emptyFolders` under `root` with their modification times.
func writeTree(_ files: [SampleFile], emptyFolders: [String] = [], at root: String) throws {
    let fm = FileManager.default
    for folder in emptyFolders {
        try fm.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
    }
    for file in files {
        try writeFile(root + "/" + file.path, file.content, modified: file.modified)
    }
}

/// Writes one file (making its folders) and sets its modification time.
func writeFile(_ path: String, _ content: [UInt8], modified: Double) throws {
    let fm = FileManager.default
    try fm.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(content).write(to: URL(fileURLWithPath: path))
    try fm.setAttributes([.modificationDate: Date(timeIntervalSince1970: modified)], ofItemAtPath: path)
}

/// Every file and folder under `root` (relative paths), leaving out `.ftpsync`.
func treeListing(_ root: String) -> [String: FileFacts] {
    var result: [String: FileFacts] = [:]
    guard let walker = FileManager.default.enumerator(atPath: root) else { return result }
    while let relative = walker.nextObject() as? String {
        if relative == ".ftpsync" || relative.hasPrefix(".ftpsync/") {
            walker.skipDescendants()
            continue
        }
        let path = root + "/" + relative
        var info = stat()
        guard lstat(path, &info) == 0 else { continue }
        let isFolder = (info.st_mode & S_IFMT) == S_IFDIR
        let content = isFolder ? nil : FileManager.default.contents(atPath: path).map { [UInt8]($0) }
        result[relative] = FileFacts(
            isFolder: isFolder, content: content, modified: Double(info.st_mtim.tv_sec))
    }
    return result
}

/// What a tree comparison looks at.
struct FileFacts: Equatable {
    var isFolder: Bool
    var content: [UInt8]?
    /// Whole seconds since 1970.
    var modified: Double
}

/// 400 small files (2,000 to 2,399 bytes) in 8 folders, dated yesterday a minute apart: enough
/// for small-file record batches to be cut by a kill. `seed` varies the content.
func smallFileTree(seed: UInt64) -> [SampleFile] {
    let base = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 86_400
    return (0..<400).map { index in
        SampleFile(
            path: "d\(index % 8)/f\(index).bin", content: pseudoRandomBytes(2_000 + index, seed: seed + UInt64(index)),
            modified: base - Double(index * 60))
    }
}
