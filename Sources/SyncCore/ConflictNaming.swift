// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Recognises the names of conflict copies (`NAME.conflict-<UTC stamp>.EXT`, the stamp as
/// `YYYYMMDDTHHMMSSZ`; `LocalFileSystem.conflictName` makes them and keeps the stamp whole when it
/// cuts a name to fit).
public enum ConflictNaming {
    static let marker = Array(".conflict-".utf8)

    /// True when `name` holds `.conflict-` followed by a UTC stamp (8 digits, `T`, 6 digits, `Z`).
    public static func isConflictCopy(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        let stampLength = 16
        guard bytes.count >= marker.count + stampLength else { return false }
        var start = 0
        while start + marker.count + stampLength <= bytes.count {
            if bytes[start..<(start + marker.count)].elementsEqual(marker) {
                let stamp = bytes[(start + marker.count)..<(start + marker.count + stampLength)]
                if isStamp(Array(stamp)) { return true }
            }
            start += 1
        }
        return false
    }

    private static func isStamp(_ stamp: [UInt8]) -> Bool {
        func digits(_ range: Range<Int>) -> Bool { stamp[range].allSatisfy { (0x30...0x39).contains($0) } }
        return digits(0..<8) && stamp[8] == UInt8(ascii: "T") && digits(9..<15) && stamp[15] == UInt8(ascii: "Z")
    }
}
