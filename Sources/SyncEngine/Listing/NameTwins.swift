// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree

/// Names of one device folder that are equal after Unicode normalization (NFC) but differ in
/// their bytes: `café.txt` spelled precomposed (NFC) and decomposed (NFD), two files with their
/// own content. Paths are matched in NFC, so without care one would hide the other.
///
/// Both are synced: the name already in NFC keeps it (when none is, the smallest in bytes does);
/// every other twin gets the local name `STEM~nfd.EXT` (`~nfd2`, `~nfd3`, … for more than two),
/// stable across runs since it depends only on the folder's names. `FTPRemote` sends each
/// twin's own server spelling; `RemoteScanner` gives each its own path.
enum NameTwins {
    /// The tag put before the extension of a twin that does not keep its name.
    static let tag = "~nfd"

    /// For the names of one listing (in listing order): the position of each twin that does not
    /// keep its name, with the local name it gets. Empty (and cheap) when every name is in NFC.
    static func renamed(_ names: [String]) -> [Int: String] {
        var spelledOtherwise: [String: [Int]] = [:]
        for (index, name) in names.enumerated() where !name.utf8.elementsEqual(name.nfc.utf8) {
            spelledOtherwise[name.nfc, default: []].append(index)
        }
        guard !spelledOtherwise.isEmpty else { return [:] }
        var groups = spelledOtherwise
        for (index, name) in names.enumerated() where groups[name] != nil && name.utf8.elementsEqual(name.nfc.utf8) {
            groups[name]?.append(index)
        }
        var result: [Int: String] = [:]
        for (normalized, indices) in groups where indices.count > 1 {
            // The NFC spelling keeps the name, else the smallest in bytes; the others in byte order.
            let ordered = indices.sorted { a, b in
                let aKeeps = names[a].utf8.elementsEqual(normalized.utf8)
                let bKeeps = names[b].utf8.elementsEqual(normalized.utf8)
                if aKeeps != bKeeps { return aKeeps }
                return names[a].utf8.lexicographicallyPrecedes(names[b].utf8)
            }
            for (rank, index) in ordered.dropFirst().enumerated() {
                result[index] = suffixed(normalized, rank: rank)
            }
        }
        return result
    }

    /// `STEM~nfd.EXT` for rank 0, `STEM~nfd2.EXT` for rank 1, …
    static func suffixed(_ name: String, rank: Int) -> String {
        let tag = rank == 0 ? Self.tag : Self.tag + String(rank + 1)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else {
            return NameFitting.fit(stem: name, tag: tag, ext: "")
        }
        return NameFitting.fit(stem: String(name[..<dot]), tag: tag, ext: String(name[dot...]))
    }
}
