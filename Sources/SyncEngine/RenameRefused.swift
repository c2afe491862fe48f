import LocalTree
import SyncCore

/// A planned local rename not carried out: the local file is left where it is, nothing is
/// replaced; the next run plans again.
struct RenameRefused: Error, CustomStringConvertible {
    var path: RelativePath
    var to: RelativePath
    /// Why, e.g. `something is already there`.
    var reason: String

    var description: String { "\(path): not moved to \(to): \(reason); left in place, the next run plans again" }

    /// Checks, right before a local rename of `path` (at `source`) to `to` (at `destination`),
    /// that nothing is at the destination and that the file is still what `record` (the last
    /// sync) says, so a rename never replaces a file and never carries a local change away.
    /// - Throws: `RenameRefused` when either does not hold; `LocalFileError` when `lstat` fails.
    static func check(
        _ path: RelativePath, at source: String, to: RelativePath, at destination: String, record: FileRecord?
    ) throws {
        let files = LocalFileSystem()
        if let record, let now = try files.status(at: source),
            now.kind != .file || now.identity.size != record.localSize
                || !now.identity.modified.matches(record.localModified)
        {
            throw RenameRefused(path: path, to: to, reason: "it changed here since the last sync")
        }
        if try files.status(at: destination) != nil {
            throw RenameRefused(path: path, to: to, reason: "something is already there")
        }
    }
}
