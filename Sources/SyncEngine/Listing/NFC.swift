// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

extension String {
    /// This string in Unicode Normalization Form C (the form paths are matched in). ASCII text
    /// is its own NFC and is returned as is, without Foundation's decompose-and-compose pass,
    /// which costs more than the rest of reading a listing line.
    var nfc: String {
        utf8.allSatisfy { $0 < 0x80 } ? self : precomposedStringWithCanonicalMapping
    }
}
