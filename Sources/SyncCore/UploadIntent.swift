// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// What an upload is about to place, stored just before its RNTO (issue 13 item 6).
///
/// A kill or a lost device between RNTO and the record leaves the device holding our bytes
/// under the final name while the record still shows the old remote size and time; without
/// the intent every later push would call that file a conflict. The next run compares the
/// device's file with the intent (`UploadIntent.reconcile`) and records it when it is ours.
public struct UploadIntent: Sendable, Hashable {
    /// The file uploaded, relative to the device's root.
    public var path: RelativePath
    /// The temporary's absolute remote path (what RNFR names).
    public var temporaryName: String
    /// Size in bytes and modification time of the local file that was sent.
    public var localSize: UInt64
    public var localModified: FileTime
    /// XXH3-128 digest of the bytes sent, when known.
    public var digest: String?
    /// Bytes the temporary held when it was verified, right before RNTO.
    public var sentSize: UInt64
    /// The modification time (UTC, whole seconds) the upload sets after RNTO (MFMT).
    public var timeToSet: Date
    /// When the intent was stored (UTC, the local clock).
    public var stored: Date

    public init(
        path: RelativePath, temporaryName: String, localSize: UInt64, localModified: FileTime, digest: String?,
        sentSize: UInt64, timeToSet: Date, stored: Date
    ) {
        self.path = path
        self.temporaryName = temporaryName
        self.localSize = localSize
        self.localModified = localModified
        self.digest = digest
        self.sentSize = sentSize
        self.timeToSet = timeToSet
        self.stored = stored
    }

    /// What comparing sampled ranges of the device's file with the local file showed.
    public enum Sample: Sendable, Hashable {
        /// Every range read from the device equals the local file's bytes there.
        case matched
        /// A range differs (or the device's file ended early): not ours.
        case mismatched
        /// Not compared: the local file changed since the intent, or the device refused the reads.
        case unavailable
    }

    /// Seconds a device's clock may run behind ours and its listed time still count as "written
    /// after the intent".
    public static let clockSlack: Double = 2

    /// The ranges (byte offsets) compared with the local file: head, middle and tail, each at
    /// most `length` bytes; the whole file when it is shorter than three ranges.
    public static func sampleRanges(size: UInt64, length: UInt64 = 4096) -> [Range<UInt64>] {
        guard size > 0 else { return [] }
        let (three, overflow) = length.multipliedReportingOverflow(by: 3)
        if !overflow, size <= three { return [0..<size] }
        let middle = size / 2 - length / 2
        return [0..<length, middle..<(middle + length), (size - length)..<size]
    }

    /// Whether `remote` (the device's file at `path` now) is the one this intent sent.
    ///
    /// The evidence, all required: the size equals `sentSize`; sampled bytes did not differ;
    /// and either the sampled bytes matched, or the listed time is the one the upload sets
    /// (`timeToSet`) or not earlier than the intent (minus `clockSlack` and the listing's
    /// precision). Size and time alone are the minimum, used only when sampling was not possible.
    /// - Returns: the record to store when the file is ours, nil when it is not (or is gone).
    public func reconcile(remote: SnapshotEntry?, sample: Sample) -> FileRecord? {
        guard let remote, remote.kind == .file, remote.size == sentSize, sample != .mismatched else { return nil }
        if sample != .matched {
            guard let listed = remote.modified else { return nil }
            let setTime = FileTime(date: timeToSet, granularity: .second)
            let written = listed.seconds + listed.granularity.seconds
            guard listed.matches(setTime) || written >= stored.timeIntervalSince1970 - Self.clockSlack else {
                return nil
            }
        }
        return FileRecord(
            path: path, remoteSize: remote.size, remoteModified: remote.modified, localSize: localSize,
            localModified: localModified, digest: digest)
    }
}
