// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// `path` made absolute against the folder `base` (itself absolute) and normalized lexically:
/// no `.`, no empty components, `..` removes the previous component (never above `/`).
/// Symbolic links are not resolved; the disk is not touched.
func absolutePath(_ path: String, relativeTo base: String) -> String {
    let joined = path.hasPrefix("/") ? path : base + "/" + path
    var components: [Substring] = []
    for component in joined.split(separator: "/", omittingEmptySubsequences: true) {
        switch component {
        case ".": continue
        case "..": _ = components.popLast()
        default: components.append(component)
        }
    }
    return "/" + components.joined(separator: "/")
}

/// The folder holding the file at absolute `path`.
func parentFolder(of path: String) -> String {
    absolutePath("..", relativeTo: path)
}
