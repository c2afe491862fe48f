// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

// libFuzzer entry point for the parsers that read what servers send: the reply parser
// (`ReplyParser`), passive-mode replies (`PassiveEndpoint.parse`), FEAT (`FTPFeatures`),
// time values (`FTPTime.parse`) and listings (`ListingParser.parse`, MLSD and LIST, plus the
// MLST reply form). Built by scripts/fuzz.sh together with those sources as one module; a
// crash, a trap (overflow, out-of-bounds) or a hang is a finding.
import FTPListing
import Foundation

/// A fixed clock and zone, so a finding reproduces exactly.
private let context = ListingContext(
    now: Date(timeIntervalSince1970: 1_800_000_000), timeZone: TimeZone(secondsFromGMT: 8 * 3600) ?? .current)

/// Feeds `data` to every parser; the first byte picks how it is cut into lines.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ pointer: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let pointer, count > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: pointer, count: count))
    FuzzDriver.run(bytes, context: context)
    return 0
}
