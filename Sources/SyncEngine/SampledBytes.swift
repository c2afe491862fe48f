import Foundation
import SyncCore

/// Compares byte ranges of a file on the device with the same ranges of a local file: REST and
/// a short RETR per range, the transfer abandoned once the range has arrived.
enum SampledBytes {
    /// Thrown by the sink once a range is complete; ends the RETR early.
    private struct RangeComplete: Error {}

    /// Reads `ranges` of `remotePath` and of the open local file `descriptor` and compares them.
    /// - Returns: `.matched` when every range is equal, `.mismatched` when one differs or the
    ///   device's file ends early, `.unavailable` when the device or the local file could not
    ///   be read.
    static func compare(
        remote: RemoteFileSystem, remotePath: String, local descriptor: Int32, ranges: [Range<UInt64>]
    ) -> UploadIntent.Sample {
        for range in ranges {
            let wanted = Int(clamping: range.upperBound - range.lowerBound)
            var local = [UInt8](repeating: 0, count: wanted)
            let read = local.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress, wanted, off_t(clamping: range.lowerBound))
            }
            guard read == wanted else { return .unavailable }
            var device: [UInt8] = []
            device.reserveCapacity(wanted)
            do {
                _ = try remote.retrieve(remotePath, from: range.lowerBound) { chunk in
                    device += chunk.prefix(wanted - device.count)
                    if device.count >= wanted { throw RangeComplete() }
                }
            } catch is RangeComplete {
            } catch {
                return .unavailable
            }
            if device != local { return .mismatched }
        }
        return .matched
    }
}
