// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import Foundation
import SyncCore

/// The compact form an `ActionLog` spools its reports in: per report a 4-byte length (little
/// endian) and a body of kind, status and flags (one byte each), `bytes` and `offset` (8 bytes
/// each), then `path`, `to` and `error` as 4-byte length and UTF-8 (the last two only when
/// present). Read back with every length checked against what is there: a damaged record
/// ends the reading, it never traps.
enum ActionReportRecord {
    fileprivate static let hasTo: UInt8 = 1
    fileprivate static let hasError: UInt8 = 2
    fileprivate static let sizeKnown: UInt8 = 4
    fileprivate static let hasExpect: UInt8 = 8
    /// The longest body read back, in bytes (paths and one-line errors are far shorter).
    static let longestBody = 1 << 24

    /// Appends the record of `report` to `out`.
    static func append(_ report: ActionReport, to out: inout [UInt8]) {
        var body: [UInt8] = []
        body.reserveCapacity(24 + report.path.utf8.count)
        body.append(UInt8(ActionKind.allCases.firstIndex(of: report.kind) ?? 0))
        body.append(UInt8(ActionStatus.allCases.firstIndex(of: report.status) ?? 0))
        var flags: UInt8 = report.sizeKnown ? sizeKnown : 0
        if report.to != nil { flags |= hasTo }
        if report.error != nil { flags |= hasError }
        let expect = report.expect.flatMap { try? JSONEncoder().encode($0) }.map { String(decoding: $0, as: UTF8.self) }
        if expect != nil { flags |= hasExpect }
        body.append(flags)
        appendInteger(report.bytes, to: &body)
        appendInteger(report.offset, to: &body)
        appendText(report.path, to: &body)
        if let to = report.to { appendText(to, to: &body) }
        if let error = report.error { appendText(error, to: &body) }
        if let expect { appendText(expect, to: &body) }
        appendInteger(UInt32(truncatingIfNeeded: body.count), to: &out)
        out += body
    }

    /// Reads the record starting at `position` in `bytes`.
    /// - Returns: the report and the position after its record; nil when `bytes` does not hold
    ///   the whole record from `position`, or (`damaged`) when the record is not one this wrote.
    static func read(_ bytes: [UInt8], at position: Int) -> Read {
        guard let length = integer(UInt32.self, in: bytes, at: position).map({ Int($0) }) else { return .incomplete }
        guard length <= longestBody else { return .damaged }
        let start = position + 4
        guard bytes.count - start >= length else { return .incomplete }
        var reader = BodyReader(bytes: bytes[start..<(start + length)])
        guard let report = reader.report() else { return .damaged }
        return .report(report, next: start + length)
    }

    /// What `read(_:at:)` found.
    enum Read {
        case report(ActionReport, next: Int)
        /// The bytes end inside the record: read more.
        case incomplete
        /// Not a record this type wrote.
        case damaged
    }

    private static func appendInteger<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out += $0 }
    }

    private static func appendText(_ text: String, to out: inout [UInt8]) {
        appendInteger(UInt32(truncatingIfNeeded: text.utf8.count), to: &out)
        out += text.utf8
    }

    fileprivate static func integer<T: FixedWidthInteger>(_: T.Type, in bytes: ArraySlice<UInt8>, at position: Int)
        -> T?
    {
        let size = MemoryLayout<T>.size
        guard position >= bytes.startIndex, bytes.endIndex - position >= size else { return nil }
        var value: T = 0
        for index in 0..<size { value |= T(bytes[position + index]) << (8 * index) }
        return value
    }

    private static func integer<T: FixedWidthInteger>(_ type: T.Type, in bytes: [UInt8], at position: Int) -> T? {
        integer(type, in: bytes[...], at: position)
    }
}

/// Reads one record's body front to back, every length checked.
private struct BodyReader {
    let bytes: ArraySlice<UInt8>
    var position: Int

    init(bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    mutating func report() -> ActionReport? {
        guard let kind = byte().flatMap({ Self.element(ActionKind.allCases, $0) }),
            let status = byte().flatMap({ Self.element(ActionStatus.allCases, $0) }),
            let flags = byte(), let bytes = integer(UInt64.self), let offset = integer(UInt64.self),
            let path = text()
        else { return nil }
        let hasTo = flags & ActionReportRecord.hasTo != 0
        let hasError = flags & ActionReportRecord.hasError != 0
        let hasExpect = flags & ActionReportRecord.hasExpect != 0
        let to = hasTo ? text() : nil
        let error = hasError ? text() : nil
        let expect = hasExpect ? text() : nil
        guard hasTo == (to != nil), hasError == (error != nil), hasExpect == (expect != nil),
            position == self.bytes.endIndex
        else { return nil }
        var report = ActionReport(
            kind: kind, path: path, to: to, bytes: bytes, offset: offset, status: status, error: error,
            sizeKnown: flags & ActionReportRecord.sizeKnown != 0)
        report.expect = expect.flatMap { try? JSONDecoder().decode(ActionExpectation.self, from: Data($0.utf8)) }
        return report
    }

    private static func element<C: RandomAccessCollection>(_ all: C, _ index: UInt8) -> C.Element?
    where C.Index == Int {
        Int(index) < all.count ? all[all.startIndex + Int(index)] : nil
    }

    private mutating func byte() -> UInt8? { integer(UInt8.self) }

    private mutating func integer<T: FixedWidthInteger>(_ type: T.Type) -> T? {
        guard let value = ActionReportRecord.integer(type, in: bytes, at: position) else { return nil }
        position += MemoryLayout<T>.size
        return value
    }

    private mutating func text() -> String? {
        guard let length = integer(UInt32.self).map({ Int($0) }), bytes.endIndex - position >= length else {
            return nil
        }
        defer { position += length }
        return String(decoding: bytes[position..<(position + length)], as: UTF8.self)
    }
}
