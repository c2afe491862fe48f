// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import FTPListing
import Foundation
import SyncCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension LocalFileSystem {
    /// The name a conflicting local file is kept under beside the pulled one:
    /// `NAME.conflict-<UTC stamp>.EXT` (`NAME.conflict-<UTC stamp>` without an extension; a
    /// leading dot does not start an extension). A name that would pass NAME_MAX (255 bytes) is
    /// shortened as `NameFitting.fit` says: the extension kept, the stem cut by bytes, a short hash.
    public static func conflictName(for name: String, at date: Date) -> String {
        let stamp = ".conflict-" + UTCFields(date).basicStamp
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return NameFitting.fit(stem: String(name[..<dot]), tag: stamp, ext: String(name[dot...]))
        }
        return NameFitting.fit(stem: name, tag: stamp, ext: "")
    }

    /// The trash folder of one run: `<localRoot>/.ftpsync/trash/<UTC stamp>`.
    public static func trashFolder(localRoot: String, at date: Date) -> String {
        "\(localRoot)/\(LocalScanner.stateFolderName)/trash/\(UTCFields(date).basicStamp)"
    }

    /// Moves the file (or folder) at `source` into the trash as
    /// `<localRoot>/.ftpsync/trash/<UTC stamp of date>/<device>/<path>`, making the folders it
    /// needs; never unlinks anything. When that name is taken, `~1`, `~2`, … is appended.
    /// `localRoot` and `source` must be on one file system (`rename(2)`).
    /// - Parameters:
    ///   - source: the full path of what to trash, e.g. `<localRoot>/cam/DCIM/a.jpg`.
    ///   - localRoot: the state root, holding `.ftpsync`.
    ///   - device: the device's name (one path component).
    ///   - path: where the file was, relative to the device's folder.
    ///   - date: the run's time (one trash folder per run).
    /// - Returns: the full path the file now has.
    /// - Throws: `LocalFileError` when the device name is not a valid component, a folder
    ///   cannot be made, or the rename fails.
    @discardableResult
    public func moveToTrash(
        _ source: String, localRoot: String, device: String, path: RelativePath, at date: Date
    ) throws(LocalFileError) -> String {
        if path.isRoot {
            throw LocalFileError(operation: "trash", path: source, code: 0, detail: "cannot trash the device root")
        }
        do {
            _ = try RelativePath.validated(name: device)
        } catch {
            throw LocalFileError(operation: "trash", path: source, code: 0, detail: "device \(error)")
        }
        var destination = LocalFileSystem.trashFolder(localRoot: localRoot, at: date) + "/\(device)"
        if !path.parent.isRoot { destination += "/" + path.parent.string }
        try makeFolders(at: destination)
        let folder = destination
        destination += "/" + path.name
        var candidate = destination
        var attempt = 0
        while try status(at: candidate) != nil {
            attempt += 1
            candidate = folder + "/" + NameFitting.fit(stem: path.name, tag: "~\(attempt)", ext: "")
        }
        try move(from: source, to: candidate)
        return candidate
    }
}
