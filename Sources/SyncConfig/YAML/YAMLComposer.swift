// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// Why the composer refused a well-formed event stream.
struct YAMLCompositionError: Error, Equatable {
    let position: SourcePosition
    let message: String
}

/// Builds the node tree of the single document in `events`: resolves aliases to their
/// anchored nodes, applies merge keys (`<<: *base`; keys written in the mapping win),
/// refuses duplicate keys in one mapping and mapping keys that are not scalars.
/// Returns nil for a stream without a document (an empty file).
/// - Throws: `YAMLCompositionError` for a second document, an unknown alias, a duplicate key
///   or a non-scalar key, at that item's position.
func composeYAMLDocument(_ events: [YAMLEvent]) throws(YAMLCompositionError) -> YAMLNode? {
    var composer = Composer(events: events)
    return try composer.document()
}

private struct Composer {
    let events: [YAMLEvent]
    var index = 0
    var anchors: [String: YAMLNode] = [:]
    /// Collections open around the current event.
    var depth = 0
    /// The deepest nesting accepted.
    static let maximumDepth = 64

    init(events: [YAMLEvent]) {
        self.events = events
    }

    mutating func next() -> YAMLEvent? {
        guard index < events.count else { return nil }
        defer { index += 1 }
        return events[index]
    }

    mutating func document() throws(YAMLCompositionError) -> YAMLNode? {
        guard case .documentStart = next() else { return nil }
        let root = try node()
        _ = next()  // document end
        if case .documentStart(let at) = next() {
            throw YAMLCompositionError(
                position: at, message: "expected one YAML document, found a second one ('---')")
        }
        return root
    }

    mutating func node() throws(YAMLCompositionError) -> YAMLNode? {
        let event = next()
        switch event {
        case .sequenceStart(_, let at), .mappingStart(_, let at):
            // A configuration is a few levels deep; thousands of levels are an attack on the stack.
            if depth >= Composer.maximumDepth {
                throw YAMLCompositionError(
                    position: at, message: "nested more than \(Composer.maximumDepth) levels deep")
            }
            depth += 1
        default: break
        }
        defer {
            if case .sequenceStart = event { depth -= 1 }
            if case .mappingStart = event { depth -= 1 }
        }
        switch event {
        case .scalar(let value, let plain, let anchor, let at):
            return remember(YAMLNode(content: .scalar(value, plain: plain), position: at), as: anchor)
        case .alias(let anchor, let at):
            guard let target = anchors[anchor] else {
                throw YAMLCompositionError(position: at, message: "unknown alias '*\(anchor)'")
            }
            return target
        case .sequenceStart(let anchor, let at):
            var items: [YAMLNode] = []
            while let item = try node() { items.append(item) }
            return remember(YAMLNode(content: .sequence(items), position: at), as: anchor)
        case .mappingStart(let anchor, let at):
            return remember(try mapping(at: at), as: anchor)
        default:
            return nil  // an end event closes the enclosing collection
        }
    }

    mutating func mapping(at start: SourcePosition) throws(YAMLCompositionError) -> YAMLNode {
        var pairs: [YAMLNode.Pair] = []
        var seen: [String: SourcePosition] = [:]
        var merged: [YAMLNode.Pair] = []
        while let key = try node() {
            guard let name = key.scalarText else {
                throw YAMLCompositionError(
                    position: key.position, message: "mapping keys must be plain words, found \(key.shortDescription)")
            }
            if let first = seen[name] {
                throw YAMLCompositionError(
                    position: key.position,
                    message: "duplicate key '\(name)' (first at line \(first.line), column \(first.column))")
            }
            seen[name] = key.position
            let value = try node() ?? YAMLNode(content: .scalar("", plain: true), position: key.position)
            if case .scalar("<<", plain: true) = key.content {
                merged = try mergedPairs(from: value)
            } else {
                pairs.append(YAMLNode.Pair(key: key, value: value))
            }
        }
        for pair in merged where seen[pair.key.scalarText ?? ""] == nil {
            seen[pair.key.scalarText ?? ""] = pair.key.position
            pairs.append(pair)
        }
        return YAMLNode(content: .mapping(pairs), position: start)
    }

    /// The pairs a merge key brings in: those of one mapping, or of a list of mappings
    /// (earlier mappings win).
    func mergedPairs(from value: YAMLNode) throws(YAMLCompositionError) -> [YAMLNode.Pair] {
        let sources: [YAMLNode]
        switch value.content {
        case .mapping: sources = [value]
        case .sequence(let items): sources = items
        case .scalar: sources = [value]
        }
        var result: [YAMLNode.Pair] = []
        var seen = Set<String>()
        for source in sources {
            guard case .mapping(let pairs) = source.content else {
                throw YAMLCompositionError(
                    position: source.position,
                    message:
                        "a merge key ('<<') takes a mapping or a list of mappings, found \(source.shortDescription)")
            }
            for pair in pairs where seen.insert(pair.key.scalarText ?? "").inserted {
                result.append(pair)
            }
        }
        return result
    }

    mutating func remember(_ node: YAMLNode, as anchor: String?) -> YAMLNode {
        if let anchor { anchors[anchor] = node }
        return node
    }
}
