import Foundation
import LocalTree
import SyncCore

/// A plan writer that keeps the actions in memory, one array per section, and what the pull's
/// executor needs of each download as it is added: the local file's identity and record as the
/// walk saw them (`lookup`). The plan is the sections one after the other (`takeActions()`).
final class PlanSections: PlanWriter {
    private var sections: [[Action]] = Array(repeating: [], count: PlanSection.allCases.count)
    /// What the walk saw at a path being planned: the local file's identity and the record.
    var lookup: ((RelativePath) -> (FileIdentity?, FileRecord?))?
    /// The identities of the local files that downloads replace, by path.
    private(set) var seen: [RelativePath: FileIdentity] = [:]
    /// The records of the paths downloads write, by path.
    private(set) var records: [RelativePath: FileRecord] = [:]

    func append(_ action: Action, to section: PlanSection) throws {
        sections[section.rawValue].append(action)
        guard action.kind == .download, let (identity, record) = lookup?(action.path) else { return }
        if let identity { seen[action.path] = identity }
        if let record { records[action.path] = record }
    }

    /// Adds the record of a path the plan acts on that the walk no longer holds (a rename's
    /// old path).
    func add(_ record: FileRecord) {
        records[record.path] = record
    }

    /// Every action, the sections in order; the sections are emptied (no second copy is kept).
    func takeActions() -> [Action] {
        var actions: [Action] = []
        actions.reserveCapacity(sections.reduce(0) { $0 + $1.count })
        for index in sections.indices {
            actions += sections[index]
            sections[index] = []
        }
        return actions
    }
}
