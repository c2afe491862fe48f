// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// The valid key closest to the misspelled `key`, or nil when none is close enough:
/// an edit distance (insert, delete, replace, swap of neighbours) of at most 2, and at most
/// a third of the key's length for short keys. Case, `-` versus `_` count as no difference.
/// The one edit distance of the package: configuration keys here, options, commands and device
/// names in the command line.
/// - Parameters:
///   - key: the word as typed.
///   - validKeys: the words it may be a typo of.
/// - Returns: the nearest of `validKeys`, nil when none is within the limit.
public func nearestKey(to key: String, among validKeys: [String]) -> String? {
    let wanted = fold(key)
    var best: (key: String, distance: Int)?
    for candidate in validKeys {
        let distance = editDistance(wanted, fold(candidate))
        if distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
    }
    guard let best else { return nil }
    let limit = min(2, max(1, wanted.count / 3))
    return best.distance <= limit ? best.key : nil
}

private func fold(_ key: String) -> [Character] {
    Array(key.lowercased().replacingOccurrences(of: "-", with: "_"))
}

/// Optimal string alignment distance between `a` and `b`.
private func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [Int](repeating: 0, count: b.count + 1)
        current[0] = i
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                current[j] = min(current[j], previous2[j - 2] + 1)
            }
        }
        previous2 = previous
        previous = current
    }
    return previous[b.count]
}
