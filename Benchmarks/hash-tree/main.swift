// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

// Benchmark: scans and hashes a local tree with LocalScanner (XXH3-128, 2 threads), first with
// an empty digest cache (every file read and hashed), then with the cache that scan filled
// (nothing read). Prints files, bytes and wall/CPU time of each scan. Built by run.sh together
// with Sources/SyncCore and Sources/LocalTree into one optimised executable.
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    print("usage: hash-tree FOLDER")
    exit(2)
}
let scanner = LocalScanner(hashThreads: 2)
var cache = HashCache()
for label in ["cold cache", "warm cache"] {
    let c0 = cpuSeconds()
    let w0 = wallSeconds()
    do {
        let scan = try scanner.scan(root: arguments[1], cache: &cache)
        let files = scan.snapshot.entries.filter { $0.kind == .file }
        let bytes = files.reduce(UInt64(0)) { $0 + ($1.size ?? 0) }
        let hashed = files.filter { $0.digest != nil }.count
        let wall = wallSeconds() - w0
        print(
            String(
                format: "%@: %d files (%d with digest), %.0f MiB, wall %.3f s, CPU %.3f s, %.0f MiB/s",
                label, files.count, hashed, Double(bytes) / 1_048_576, wall, cpuSeconds() - c0,
                Double(bytes) / 1_048_576 / wall))
    } catch {
        print("scan failed: \(error)")
        exit(1)
    }
}
