// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import LocalTree
import SyncCore
import SyncStore

/// Settles the uploads an earlier run left between their RNTO and their final record (killed,
/// or the device lost right after the rename): a device file that is the one the upload sent
/// (`UploadIntent.reconcile`) is recorded as synced, so it is neither a conflict nor sent again.
struct UploadReconciler {
    let job: DeviceJob
    let store: StateStore
    let remote: RemoteFileSystem

    /// Compares each stored intent with the device's listing of its folder (`listing`, asked
    /// once per folder of the intents: the device is never listed whole for them) and sampled
    /// bytes; an intent whose temporary is still listed was never renamed and is not ours.
    /// Records the files found ours into `records` and, outside a dry run, into the state (with
    /// their partial rows and intents removed). An intent whose file is not ours is dropped; its
    /// partial row stays, so its temporary is resumed or swept as usual.
    /// - Returns: one note per file recorded.
    /// - Throws: `StoreError` when the intents cannot be read.
    func reconcile(listing: (RelativePath) -> Snapshot, records: inout [RelativePath: FileRecord]) throws
        -> [String]
    {
        var notes: [String] = []
        var folders: [RelativePath: Snapshot] = [:]
        for (path, intent) in try store.uploadIntents(device: job.name) {
            let listed = folders[path.parent] ?? listing(path.parent)
            folders[path.parent] = listed
            let entry = listed[path]
            // The temporary still listed means RNTO never happened: whatever is under the name
            // is not what we sent (sampled bytes could miss the difference).
            let renamed = listed[UploadNaming.temporaryPath(for: path)]?.kind != .file
            let sample = renamed && entry?.size == intent.sentSize ? compareBytes(intent) : .unavailable
            let found = renamed ? intent.reconcile(remote: entry, sample: sample) : nil
            if let found {
                records[path] = found
                let done = job.dryRun ? "a real run records it" : "recorded"
                notes.append("\(path): the upload an earlier run renamed into place was found complete; \(done)")
            }
            guard !job.dryRun else { continue }
            try? store.transaction {
                if let found {
                    try store.upsertRecord(found, device: job.name)
                    try store.removePartial(path: path, device: job.name, direction: .push)
                }
                try store.removeUploadIntent(path: path, device: job.name)
            }
        }
        return notes
    }

    /// Samples the device's file against the local one, when the local file is still the one
    /// the intent sent (same size and modification time).
    private func compareBytes(_ intent: UploadIntent) -> UploadIntent.Sample {
        let localPath = job.paths.file(intent.path)
        guard let stamp = LocalFileStamp(localPath), stamp.size == intent.localSize,
            stamp.modified.matches(intent.localModified), let reader = try? LocalFileReader(path: localPath)
        else { return .unavailable }
        return SampledBytes.compare(
            remote: remote, remotePath: remotePath(root: job.remoteRoot, relative: intent.path.string),
            local: reader, ranges: UploadIntent.sampleRanges(size: intent.sentSize))
    }
}
