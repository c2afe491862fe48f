// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Names ftpsync makes from a user's name (conflict copies, trash entries) cut to fit one
/// path component of the local file system: NAME_MAX, 255 bytes of UTF-8 on Linux.
public enum NameFitting {
    /// The longest name a Linux file system takes, in bytes (`NAME_MAX`).
    public static let nameMax = 255

    /// Extensions longer than this (bytes, dot included) are not kept apart from the stem.
    static let longestExtension = 32

    /// `stem + tag + ext` when it fits `nameMax` bytes; otherwise the stem is cut (by bytes, on
    /// a Unicode scalar boundary, so the UTF-8 stays valid) and `~` plus 8 hex digits of the
    /// XXH3 digest of the whole original name are put after it, so two long names cut to the
    /// same bytes still get different results: `<cut stem>~<hash><tag><ext>`. An extension
    /// longer than 32 bytes is cut with the stem. Deterministic for equal inputs.
    /// - Parameters:
    ///   - stem: the name without its extension.
    ///   - tag: what is inserted, e.g. `.conflict-20250102T030405Z` or `~1` (ASCII).
    ///   - ext: the extension with its dot (`.jpg`) or "".
    public static func fit(stem: String, tag: String, ext: String) -> String {
        let whole = stem + tag + ext
        if whole.utf8.count <= nameMax { return whole }
        let hash = "~" + String(XXH3Hasher.digest(of: Array((stem + ext).utf8)).prefix(8))
        var kept = ext
        var body = stem
        if ext.utf8.count > longestExtension {
            body = stem + ext
            kept = ""
        }
        let room = nameMax - (hash + tag + kept).utf8.count
        return prefix(of: body, bytes: max(0, room)) + hash + tag + kept
    }

    /// The longest prefix of `text` of at most `bytes` UTF-8 bytes that ends on a scalar boundary.
    static func prefix(of text: String, bytes: Int) -> String {
        var used = 0
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let size = String(scalar).utf8.count
            if used + size > bytes { break }
            used += size
            scalars.append(scalar)
        }
        return String(scalars)
    }
}
