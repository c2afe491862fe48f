import SyncCore

/// A planned local rename not carried out: the local file is left where it is, nothing is
/// replaced; the next run plans again.
struct RenameRefused: Error, CustomStringConvertible {
    var path: RelativePath
    var to: RelativePath
    /// Why, e.g. `something is already there`.
    var reason: String

    var description: String { "\(path): not moved to \(to): \(reason); left in place, the next run plans again" }
}
