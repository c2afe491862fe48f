// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What pull's trash holds (`<localRoot>/.ftpsync/trash/<UTC stamp>/<device>/<path>`, see
/// `LocalFileSystem.moveToTrash`): its files and bytes, in all and per device, and its run
/// folders. Measured with `lstat` through `TreeFolder` (a symlink is counted as the entry it
/// is, never followed) and bounded: past `limit` entries, or folders nested deeper than
/// `depthLimit`, the walk stops and `complete` is false (the sums are then at least that).
public struct TrashUsage: Sendable, Equatable {
    /// Files and bytes of one device in the trash.
    public struct Share: Sendable, Equatable {
        /// Entries that are not folders (files, symlinks, others).
        public var files = 0
        /// Their sizes as `lstat` gives them, in bytes (saturating).
        public var bytes: UInt64 = 0

        /// Nothing.
        public init() {}

        mutating func add(_ size: UInt64) {
            files += 1
            bytes = Saturating.add(bytes, size)
        }
    }

    /// Every file of the trash.
    public var total = Share()
    /// The run folders (one per pull that trashed something).
    public var runs = 0
    /// Per device name (the second level of the layout).
    public var devices: [String: Share] = [:]
    /// False when the walk stopped at a bound or could not read a folder (the sums are a floor).
    public var complete = true

    /// An empty trash.
    public init() {}

    /// Entries the walk looks at, at most.
    public static let limit = 1_000_000
    /// Folder levels below the trash the walk goes down, at most (each holds a descriptor).
    public static let depthLimit = 64

    /// Measures the trash of the tree at `localRoot`; an empty usage when there is none.
    /// - Parameter limit: entries looked at, at most (`TrashUsage.limit`).
    /// - Throws: `LocalFileError` when the tree or the trash cannot be opened (not when absent).
    public static func measure(localRoot: String, limit: Int = TrashUsage.limit) throws(LocalFileError) -> TrashUsage {
        var usage = TrashUsage()
        let trash: TreeFolder
        do {
            trash = try TreeFolder.openRoot(localRoot, create: false).folder(
                LocalScanner.stateFolderName + "/trash", create: false)
        } catch {
            if error.code == ENOENT { return usage }
            throw error
        }
        struct Level {
            var folder: TreeFolder
            var names: [String]
            var device: String?
        }
        var budget = min(max(0, limit), 100_000_000)
        // One name more than the budget: a folder holding more tells the walk it stopped short.
        var stack = [Level(folder: trash, names: try trash.names(limit: budget + 1), device: nil)]
        while let top = stack.indices.last {
            guard let name = stack[top].names.popLast() else {
                stack.removeLast()
                continue
            }
            guard budget > 0 else {
                usage.complete = false
                break
            }
            budget -= 1
            let folder = stack[top].folder
            guard let status = try? folder.status(name) else {
                usage.complete = false
                continue
            }
            guard status.kind == .directory else {
                usage.total.add(status.identity.size)
                if let device = stack[top].device { usage.devices[device, default: Share()].add(status.identity.size) }
                continue
            }
            if top == 0 { usage.runs += 1 }
            guard stack.count <= depthLimit, let child = try? folder.folder(name, create: false),
                let names = try? child.names(limit: budget + 1)
            else {
                usage.complete = false
                continue
            }
            stack.append(Level(folder: child, names: names, device: top == 1 ? name : stack[top].device))
        }
        return usage
    }
}
