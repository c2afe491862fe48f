// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation

/// One range of a download fetched in segments (`segments`, issue 20): bytes `start..<end` of
/// the file, of which the first `done` are written. Kept in the partial row of the download
/// (`StoredPartial.segments`), so each range resumes where it stopped.
public struct ByteSegment: Sendable, Hashable {
    /// First byte of the range.
    public var start: UInt64
    /// One past the last byte of the range.
    public var end: UInt64
    /// Bytes of the range already written, from `start`.
    public var done: UInt64

    /// A range of `start..<end` with `done` bytes written (clamped to the range).
    public init(start: UInt64, end: UInt64, done: UInt64 = 0) {
        self.start = start
        self.end = max(start, end)
        self.done = min(done, self.end - start)
    }

    /// Bytes in the range.
    public var length: UInt64 { end - start }
    /// Bytes still to fetch.
    public var left: UInt64 { length - done }
    /// Where the range goes on: `start + done`.
    public var next: UInt64 { start + done }

    /// The ranges as stored: `start-end-done` joined by `,`.
    public static func encode(_ segments: [ByteSegment]) -> String {
        segments.map { "\($0.start)-\($0.end)-\($0.done)" }.joined(separator: ",")
    }

    /// The ranges `text` holds (`encode`), when they cover `0..<size` in order without gaps or
    /// overlaps; nil for anything else (a row from another version, a damaged one: the
    /// download then starts over).
    public static func decode(_ text: String, size: UInt64) -> [ByteSegment]? {
        var segments: [ByteSegment] = []
        var expected: UInt64 = 0
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let numbers = part.split(separator: "-", omittingEmptySubsequences: false).compactMap { UInt64($0) }
            guard numbers.count == 3, numbers[0] == expected, numbers[1] > numbers[0],
                numbers[2] <= numbers[1] - numbers[0], segments.count < 1_024
            else { return nil }
            segments.append(ByteSegment(start: numbers[0], end: numbers[1], done: numbers[2]))
            expected = numbers[1]
        }
        return expected == size && !segments.isEmpty ? segments : nil
    }
}
