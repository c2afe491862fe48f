// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree
import SyncCore
import SyncStore

/// How a push hashes the files it left unhashed while planning — new files no record's size
/// lets be a move, so no move can hinge on their digests: while each is uploaded (on a thread
/// of its own, beside the upload), or when it is adopted. A file is hashed only as the scan saw
/// it: an upload's file as its action says (`Action.seen`), an adopted one as long as it has
/// the size and modification time the plan compared. Each digest is then recorded and put in
/// the state's digest cache, so the next run finds it there.
struct DeferredDigests: Sendable {
    private let deviceRoot: String
    private let cachePrefix: String

    /// Files of the device folder `deviceRoot`, keyed in the digest cache under `cachePrefix`
    /// (see `LocalScanner.scan(root:cache:cachePrefix:)`).
    init(deviceRoot: String, cachePrefix: String) {
        self.deviceRoot = deviceRoot
        self.cachePrefix = cachePrefix
    }

    /// No device folder: nothing is hashed.
    init() {
        deviceRoot = ""
        cachePrefix = ""
    }

    /// Starts hashing `path` in the background, to end only if it is still the file `seen`
    /// (what the scan saw there); nil when the scan saw no file there.
    func start(_ path: RelativePath, seen: FileIdentity?) -> BackgroundDigest? {
        guard let seen, !deviceRoot.isEmpty else { return nil }
        return BackgroundDigest(path: fullPath(path), identity: seen)
    }

    /// Hashes the file of `entry` (a local file the plan adopts) now, when it still has the
    /// entry's size and modification time, stores the digest in the cache and returns it; nil
    /// when it changed since the scan or cannot be read.
    func digestNow(_ entry: SnapshotEntry, store: StateStore?) -> String? {
        guard !deviceRoot.isEmpty, let status = try? LocalFileSystem().status(at: fullPath(entry.path)),
            status.kind == .file, status.identity.size == entry.size, status.identity.modified == entry.modified,
            let digest = start(entry.path, seen: status.identity)?.wait()
        else { return nil }
        remember(digest, of: entry.path, seen: status.identity, in: store)
        return digest
    }

    /// Puts the digest of `path`, the file `seen`, in the state's digest cache (a failure only
    /// costs a hash on the next run).
    func remember(_ digest: String, of path: RelativePath, seen: FileIdentity, in store: StateStore?) {
        guard let store else { return }
        let key = cachePrefix.isEmpty ? path.string : cachePrefix + "/" + path.string
        let cached = CachedDigest(
            path: key, size: seen.size, mtimeNanoseconds: seen.mtimeNanoseconds, inode: seen.inode, digest: digest)
        try? store.saveHashCache(upserts: [cached])
    }

    private func fullPath(_ path: RelativePath) -> String {
        deviceRoot.hasSuffix("/") ? deviceRoot + path.string : deviceRoot + "/" + path.string
    }
}
