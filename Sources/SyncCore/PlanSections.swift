import Foundation

/// A plan writer that keeps the actions in memory, by section: the sections one after the other
/// are the plan's actions in the order they are carried out (`Plan.actions`).
public final class PlanSections: PlanWriter {
    private var sections: [PlanSection: [Action]] = [:]

    /// No actions yet.
    public init() {}

    /// Adds `action` at the end of `section`; never throws.
    public func append(_ action: Action, to section: PlanSection) throws {
        sections[section, default: []].append(action)
    }

    /// Every action, the sections in their order; the sections are emptied.
    public func takeActions() -> [Action] {
        var actions: [Action] = []
        actions.reserveCapacity(sections.values.reduce(0) { $0 + $1.count })
        for section in PlanSection.allCases {
            actions += sections.removeValue(forKey: section) ?? []
        }
        return actions
    }
}
