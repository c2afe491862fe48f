// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

// Benchmark: parses a LIST file with FTPListing and prints the CPU time of the parse alone.
// Built by run.sh together with Sources/FTPListing/*.swift into one optimised executable.
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let arguments = CommandLine.arguments
guard arguments.count == 2, let data = FileManager.default.contents(atPath: arguments[1]) else {
    print("usage: listing-parse FILE")
    exit(2)
}
let bytes = [UInt8](data)
let context = ListingContext(
    now: Date(timeIntervalSince1970: 1_718_452_800), timeZone: TimeZone(identifier: "Europe/Berlin") ?? .current)
let start = cpuSeconds()
let parsed = ListingParser.parse(bytes, format: .list, context: context)
let seconds = cpuSeconds() - start
print("entries: \(parsed.entries.count)  warnings: \(parsed.warnings.count)  bytes: \(bytes.count)")
print(String(format: "parse CPU time: %.3f s", seconds))
