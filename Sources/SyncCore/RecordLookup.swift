// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The records of the last sync looked up by path: what the entry rules of the planners read.
/// A whole-tree plan passes a dictionary; a folder walk a `RecordTable` of one folder.
public protocol RecordLookup {
    /// The record of `path`, if any.
    subscript(_ path: RelativePath) -> FileRecord? { get }
    /// True when there is no record at all.
    var isEmpty: Bool { get }
}

extension Dictionary: RecordLookup where Key == RelativePath, Value == FileRecord {}
