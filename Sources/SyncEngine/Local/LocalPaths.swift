// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree
import SyncCore

/// Where things live on the local side for one device (CONTRACT.md, "Layout on disk").
public struct LocalPaths: Sendable {
    /// The local tree's root (`local` in the config): holds `.ftpsync/`.
    public var treeRoot: String
    /// The device's own folder, `<treeRoot>/<device.local>`.
    public var deviceRoot: String
    /// The device's name, used for its folders under `.ftpsync/`.
    public var device: String

    public init(treeRoot: String, deviceRoot: String, device: String) {
        self.treeRoot = treeRoot
        self.deviceRoot = deviceRoot
        self.device = device
    }

    /// `<treeRoot>/.ftpsync`: ftpsync's own files, never synced.
    public var stateFolder: String { treeRoot + "/.ftpsync" }

    /// The final place of `path`.
    public func file(_ path: RelativePath) -> String {
        path.isRoot ? deviceRoot : deviceRoot + "/" + path.string
    }

    /// Where an unfinished download of `path` collects its bytes: one flat folder per device,
    /// the file named by the XXH3 digest of the path, so no name length, depth or file/folder
    /// clash on the device can stop a partial from being written or found again.
    public func partial(_ path: RelativePath) -> String {
        stateFolder + "/partial/" + device + "/" + LocalPaths.partialName(path)
    }

    /// The name of `path`'s partial in its device's partial folder: the XXH3 digest of the path.
    public static func partialName(_ path: RelativePath) -> String {
        XXH3Hasher.digest(of: Array(path.string.utf8))
    }

    /// `NAME.conflict-<UTC time>.EXT` beside `path`: where a pull keeps a local version it
    /// would otherwise overwrite; cut to fit NAME_MAX (`LocalFileSystem.conflictName`).
    public func conflictCopy(_ path: RelativePath, at date: Date) -> String {
        file(path.parent) + "/" + LocalFileSystem.conflictName(for: path.name, at: date)
    }
}
