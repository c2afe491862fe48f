import Foundation
import LocalTree
import SyncCore
import SyncStore

/// The files a push left unhashed while planning — new files no record's size lets be a move,
/// so no move can hinge on their digests — with what is needed to hash them later: while each
/// is uploaded (on a thread of its own, beside sendfile), or when it is adopted. Each digest is
/// then recorded and put in the state's digest cache, so the next run finds it there.
struct DeferredDigests: Sendable {
    /// A deferred file: what the scan saw and its key in the digest cache.
    struct File: Sendable {
        var identity: FileIdentity
        var cacheKey: String
    }

    private let files: [RelativePath: File]
    private let deviceRoot: String

    /// The files of `files`, left without a digest under the device folder `deviceRoot` (a
    /// push's folder walk collects them folder by folder, `PushFolderSource`).
    init(files: [RelativePath: File], deviceRoot: String) {
        self.files = files
        self.deviceRoot = deviceRoot
    }

    /// No deferred files.
    init() {
        files = [:]
        deviceRoot = ""
    }

    /// Starts hashing `path` in the background when its digest was deferred; nil otherwise.
    func start(_ path: RelativePath) -> BackgroundDigest? {
        guard let file = files[path] else { return nil }
        return BackgroundDigest(path: fullPath(path), identity: file.identity)
    }

    /// Hashes `path` now when its digest was deferred, stores it in the cache and returns it;
    /// nil when it was not deferred, changed since the scan or cannot be read.
    func digestNow(_ path: RelativePath, store: StateStore?) -> String? {
        guard let background = start(path), let digest = background.wait() else { return nil }
        remember(digest, of: path, in: store)
        return digest
    }

    /// Puts the digest of a deferred file in the state's digest cache (a failure only costs a
    /// hash on the next run).
    func remember(_ digest: String, of path: RelativePath, in store: StateStore?) {
        guard let file = files[path], let store else { return }
        let cached = CachedDigest(
            path: file.cacheKey, size: file.identity.size, mtimeNanoseconds: file.identity.mtimeNanoseconds,
            inode: file.identity.inode, digest: digest)
        try? store.saveHashCache(upserts: [cached])
    }

    private func fullPath(_ path: RelativePath) -> String {
        deviceRoot.hasSuffix("/") ? deviceRoot + path.string : deviceRoot + "/" + path.string
    }
}
