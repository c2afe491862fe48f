import SyncCore

/// The records of one folder in path order, looked up by binary search: what a walk's source
/// keeps of the folder being planned (and those above it) to annotate the actions written for
/// it, without a second copy in a dictionary (one of 100,000 records took 27 MB).
struct SortedRecords {
    /// The records, sorted by `RelativePath` order and unique by path.
    let records: [FileRecord]

    /// - Parameter records: sorted by path, one per path (as `StateStore.records(device:folder:)`
    ///   gives them).
    init(_ records: [FileRecord]) {
        self.records = records
    }

    /// The record of `path`, if any.
    subscript(path: RelativePath) -> FileRecord? {
        var low = 0
        var high = records.count
        while low < high {
            let middle = low + (high - low) / 2
            if records[middle].path < path {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low < records.count && records[low].path == path ? records[low] : nil
    }
}
