// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

// The fuzz driver's deterministic "mutated lines" mode: N lines made by seeded mutations of
// every listing line the tests know, each fed through every parser of server text: LIST (in
// one of four time zones, in turn) and MLSD, each without and with a legacy-encoding name
// decoder (GBK and Shift_JIS in turn); the reply parser; every 16th line as a 227 and a 229
// reply; every 1,000 lines as whole LIST and MLSD listings (CR LF, or CR CR LF). Fails when a
// 100,000-line slice takes more than the budget of CPU time; a crash (trap, overflow) kills the
// process. Built and run by run.sh.
import FTPListing
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

struct Options {
    var lines = 1_000_000
    var seed: UInt64 = 16
    var budget: Double? = 2.0
    var corpus: String?
    var show: Int?
    var paths: [String] = []
}

func parseOptions() -> Options {
    var options = Options()
    var arguments = CommandLine.arguments.dropFirst()
    while let argument = arguments.popFirst() {
        switch argument {
        case "--lines": options.lines = arguments.popFirst().flatMap { Int($0) } ?? options.lines
        case "--seed": options.seed = arguments.popFirst().flatMap { UInt64($0) } ?? options.seed
        case "--budget": options.budget = arguments.popFirst().flatMap { Double($0) }
        case "--no-timing": options.budget = nil
        case "--write-corpus": options.corpus = arguments.popFirst()
        case "--show": options.show = arguments.popFirst().flatMap { Int($0) }
        default: options.paths.append(argument)
        }
    }
    return options
}

/// `bytes` with every byte outside printable ASCII as `\xNN`.
func escaped(_ bytes: [UInt8]) -> String {
    bytes.map { (32...126).contains($0) && $0 != 92 ? String(UnicodeScalar($0)) : String(format: "\\x%02x", $0) }
        .joined()
}

let options = parseOptions()
let seeds = SeedLines.collect(from: options.paths)
guard !seeds.isEmpty else {
    print("usage: mutated-lines [--lines N] [--seed S] [--budget SECONDS | --no-timing] [--write-corpus DIR] "
        + "[--show K] SEED-PATH...  (no seed lines found)")
    exit(2)
}

if let folder = options.corpus {
    // One file per seed line for libFuzzer (scripts/fuzz.sh), with CR LF as a server sends it.
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for (index, seed) in seeds.enumerated() {
        _ = FileManager.default.createFile(
            atPath: folder + "/seed-line-\(index)", contents: Data(seed.bytes + [13, 10]))
    }
    print("wrote \(seeds.count) seed lines to \(folder)")
    exit(0)
}

let now = Date(timeIntervalSince1970: 1_718_452_800)
let zones = ["UTC", "Asia/Shanghai", "America/New_York", "Pacific/Chatham"].compactMap(TimeZone.init(identifier:))
let plain = zones.map { ListingContext(now: now, timeZone: $0) }
let legacy = try [("GBK", "Asia/Shanghai"), ("SHIFT_JIS", "Asia/Tokyo")].map { encoding, zone in
    let codec = try NameCodec(encoding: encoding)
    return ListingContext(
        now: now, timeZone: TimeZone(identifier: zone) ?? .current, decodeName: { codec.decode($0) })
}
let everyContext = plain + legacy

var mutator = LineMutator(seeds: seeds, seed: options.seed)
if let wanted = options.show {
    for _ in 0..<wanted { _ = mutator.next() }
    let line = mutator.next()
    print("line \(wanted) (\(line.mlsd ? "MLSD" : "LIST") seed): \(escaped(line.bytes))")
    exit(0)
}

print("seed lines: \(seeds.count) (\(seeds.filter(\.mlsd).count) MLSD) from \(options.paths.count) path(s)")
let slice = 100_000
var entries = 0
var block: [UInt8] = []
var worst = 0.0
var sliceStart = cpuSeconds()
let started = cpuSeconds()
let wallStarted = wallSeconds()
var failed = false
for index in 0..<options.lines {
    let line = mutator.next()
    // The time zones take turns too: line i is read in zone i mod 4.
    let zoned = plain[index % plain.count]
    if case .entry = ListingParser.parseLine(line.bytes, format: .list, context: zoned) { entries += 1 }
    // The legacy decoders take turns: GBK on even lines, Shift_JIS on odd ones.
    let decoding = legacy[index % legacy.count]
    if case .entry = ListingParser.parseLine(line.bytes, format: .list, context: decoding) { entries += 1 }
    if case .entry = ListingParser.parseLine(line.bytes, format: .mlsd, context: decoding) { entries += 1 }
    if case .entry = ListingParser.parseLine(line.bytes, format: .mlsd, context: plain[0]) { entries += 1 }
    var replies = ReplyParser()
    _ = try? replies.feed(line.bytes)
    if index % 16 == 0 {
        let text = String(decoding: line.bytes, as: UTF8.self)
        _ = try? PassiveEndpoint.parse(FTPReply(code: 227, lines: ["227 " + text]))
        _ = try? PassiveEndpoint.parse(FTPReply(code: 229, lines: ["229 " + text]))
    }
    // Whole listings of 1,000 lines: CR LF, and CR CR LF (a server doubling CRs).
    block += line.bytes + (index % 2000 < 1000 ? [13, 10] : [13, 13, 10])
    if index % 1000 == 999 {
        let context = everyContext[(index / 1000) % everyContext.count]
        entries += ListingParser.parse(block, format: .list, context: context).entries.count
        entries += ListingParser.parse(block, format: .mlsd, context: context).entries.count
        block.removeAll(keepingCapacity: true)
    }
    if (index + 1) % slice == 0 || index + 1 == options.lines {
        let spent = cpuSeconds() - sliceStart
        let scaled = spent * Double(slice) / Double((index % slice) + 1)
        worst = max(worst, scaled)
        if let budget = options.budget, scaled > budget {
            print(String(format: "SLOW: lines %d...%d took %.2f s of CPU per 100,000 (budget %.1f s)",
                index - index % slice, index, scaled, budget))
            failed = true
        }
        sliceStart = cpuSeconds()
    }
}
let cpu = cpuSeconds() - started
let wall = wallSeconds() - wallStarted
print(String(format: "lines: %d  entries read: %d  CPU: %.2f s  wall: %.2f s  lines/s (CPU): %.0f",
    options.lines, entries, cpu, wall, Double(options.lines) / max(cpu, 1e-9)))
print(String(format: "slowest 100,000-line slice: %.2f s of CPU", worst)
    + (options.budget.map { String(format: " (budget %.1f s)", $0) } ?? " (no timing check)"))
exit(failed ? 1 : 0)
