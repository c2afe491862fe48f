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

    /// Checks, right before a local rename of `path` to `to`, that nothing is at the new name
    /// (`occupied`) and that the file (`current`, its status now) is still what `record` (the
    /// last sync) says, so a rename never replaces a file and never carries a local change away.
    /// - Throws: `RenameRefused` when either does not hold.
    static func check(
        _ path: RelativePath, current: LocalFileStatus?, to: RelativePath, occupied: Bool, record: FileRecord?
    ) throws(RenameRefused) {
        if let record, let now = current,
            now.kind != .file || now.identity.size != record.localSize
                || !now.identity.modified.matches(record.localModified)
        {
            throw RenameRefused(path: path, to: to, reason: "it changed here since the last sync")
        }
        if occupied { throw RenameRefused(path: path, to: to, reason: "something is already there") }
    }
}
