// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// UNIX permission bits of an entry, from whichever form the listing gave.
extension ListingEntry {
    /// The permission bits (including setuid 0o4000, setgid 0o2000, sticky 0o1000): from the MLSD
    /// `UNIX.mode` fact (octal), else from a LIST mode string such as `rwxrwsr-x`; nil when neither
    /// is given or readable.
    public var permissions: UInt16? {
        if let octal = facts["unix.mode"] {
            guard !octal.isEmpty, octal.utf8.count <= 6, let value = UInt16(octal, radix: 8), value <= 0o7777 else {
                return nil
            }
            return value
        }
        guard let mode, mode.utf8.count == 9 else { return nil }
        let c = Array(mode.utf8)
        var bits: UInt16 = 0
        let letters: [UInt8] = [0x72, 0x77, 0x78]  // r w x
        for i in 0..<9 {
            let bit = UInt16(1) << UInt16(8 - i)
            switch c[i] {
            case letters[i % 3]: bits |= bit
            case 0x73 where i % 3 == 2, 0x74 where i % 3 == 2: bits |= bit  // s, t: executable too
            case 0x2D, 0x53, 0x54, 0x6C, 0x4C: break  // -, S, T, l, L: not executable
            default: return nil
            }
        }
        if c[2] == 0x73 || c[2] == 0x53 { bits |= 0o4000 }
        if c[5] == 0x73 || c[5] == 0x53 || c[5] == 0x6C || c[5] == 0x4C { bits |= 0o2000 }
        if c[8] == 0x74 || c[8] == 0x54 { bits |= 0o1000 }
        return bits
    }
}
