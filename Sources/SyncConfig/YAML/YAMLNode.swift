// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// A YAML node with the position where it starts in the text.
struct YAMLNode: Equatable {
    /// The node's content.
    indirect enum Content: Equatable {
        /// A scalar's text; `plain` is false for quoted and block scalars.
        case scalar(String, plain: Bool)
        case sequence([YAMLNode])
        /// Key-value pairs in document order; keys are unique scalars (the composer checks).
        case mapping([Pair])
    }

    /// One entry of a mapping.
    struct Pair: Equatable {
        let key: YAMLNode
        let value: YAMLNode
    }

    let content: Content
    let position: SourcePosition

    /// The scalar's text, or nil for a collection.
    var scalarText: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
    }

    /// True for a plain scalar that YAML reads as null: empty, `~`, `null`.
    var isNull: Bool {
        if case .scalar(let text, plain: true) = content {
            return ["", "~", "null", "Null", "NULL"].contains(text)
        }
        return false
    }

    /// Words for error messages: "a mapping", "a list", "null", or the quoted scalar.
    var shortDescription: String {
        switch content {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar(let text, _): return isNull ? "null" : "'\(text)'"
        }
    }
}
