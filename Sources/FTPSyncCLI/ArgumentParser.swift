/// One option a command accepts.
struct OptionSpec: Sendable {
    /// Every spelling, e.g. `["-n", "--dry-run"]`.
    var names: [String]
    /// The name results are stored under (the long name without dashes).
    var key: String
    /// True when the option takes a value (`--device NAME`).
    var takesValue: Bool
    /// The value's placeholder and the help line.
    var valueName: String = ""
    var help: String
}

/// The options and positional arguments of one command line, after parsing.
struct ParsedArguments: Sendable {
    var positionals: [String] = []
    var flags: Set<String> = []
    var values: [String: [String]] = [:]

    func has(_ key: String) -> Bool { flags.contains(key) }
    func value(_ key: String) -> String? { values[key]?.last }
    func all(_ key: String) -> [String] { values[key] ?? [] }
}

/// A small command-line parser: long options with `--name value` or `--name=value`, short flags,
/// `--` to end options. Hand-written because no argument-parsing package can be fetched here.
enum ArgumentParser {
    /// Parses the arguments of `command`, which takes at most one positional: a CONFIG file.
    /// - Throws: as `parse(_:specs:)`, and `UsageError` for a second positional.
    static func parseWithConfig(_ arguments: [String], specs: [OptionSpec], command: String) throws
        -> ParsedArguments
    {
        let parsed = try parse(arguments, specs: specs)
        if parsed.positionals.count > 1 {
            throw UsageError("\(command) takes one CONFIG file, got: \(parsed.positionals.joined(separator: " "))")
        }
        return parsed
    }

    /// Parses `arguments` (without the program and command names) against `specs`.
    /// - Throws: `UsageError` for an unknown option (naming the nearest valid one), a missing value,
    ///   or a value given to a flag.
    static func parse(_ arguments: [String], specs: [OptionSpec]) throws -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if optionsEnded || !word.hasPrefix("-") || word == "-" {
                result.positionals.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            var name = word
            var inlineValue: String?
            if word.hasPrefix("--"), let eq = word.firstIndex(of: "=") {
                name = String(word[..<eq])
                inlineValue = String(word[word.index(after: eq)...])
            }
            guard let spec = specs.first(where: { $0.names.contains(name) }) else {
                throw UsageError(unknownOptionMessage(name, specs: specs))
            }
            if spec.takesValue {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if index < arguments.count {
                    value = arguments[index]
                    index += 1
                } else {
                    throw UsageError("option \(name) needs a value (\(name) \(spec.valueName))")
                }
                result.values[spec.key, default: []].append(value)
            } else {
                if inlineValue != nil { throw UsageError("option \(name) takes no value") }
                result.flags.insert(spec.key)
            }
        }
        return result
    }

    static func unknownOptionMessage(_ name: String, specs: [OptionSpec]) -> String {
        let candidates = specs.flatMap(\.names).filter { $0.hasPrefix("--") }
        if let near = nearest(to: name, among: candidates) {
            return "unknown option '\(name)'; did you mean '\(near)'?"
        }
        return "unknown option '\(name)'"
    }

    /// The candidate closest to `word` by edit distance, if it is close enough to be a typo.
    static func nearest(to word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(word, $0)) }.min { $0.1 < $1.1 }
        guard let (best, distance) = scored, distance <= max(2, word.count / 3) else { return nil }
        return best
    }

    /// Levenshtein distance over characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where j <= b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            previous = current
        }
        return previous[b.count]
    }
}
