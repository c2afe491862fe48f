// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

import CYAML
import Foundation

/// A 1-based position in the configuration text: line and column (in characters).
public struct SourcePosition: Sendable, Hashable, CustomStringConvertible {
    /// Line number, counted from 1.
    public let line: Int
    /// Column number in characters, counted from 1.
    public let column: Int

    /// Creates a position from 1-based line and column numbers.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `LINE:COLUMN`.
    public var description: String { "\(line):\(column)" }
}

/// One event of libyaml's parser, copied out of C memory.
enum YAMLEvent: Equatable {
    case documentStart(SourcePosition)
    case documentEnd
    case scalar(value: String, plain: Bool, anchor: String?, at: SourcePosition)
    case alias(anchor: String, at: SourcePosition)
    case sequenceStart(anchor: String?, at: SourcePosition)
    case sequenceEnd
    case mappingStart(anchor: String?, at: SourcePosition)
    case mappingEnd
}

/// libyaml refused the text: its problem, the problem's position, and its context.
struct YAMLSyntaxError: Error, Equatable {
    let position: SourcePosition
    let message: String
}

/// Runs libyaml's event parser over `bytes` (UTF-8, or UTF-16 with a BOM) and returns every
/// event from the first document start to the last document end.
/// - Throws: `YAMLSyntaxError` at libyaml's problem mark when the text is not valid YAML.
func parseYAMLEvents(_ bytes: [UInt8]) throws(YAMLSyntaxError) -> [YAMLEvent] {
    var parser = yaml_parser_t()
    guard yaml_parser_initialize(&parser) == 1 else {
        throw YAMLSyntaxError(position: SourcePosition(line: 1, column: 1), message: "cannot start the YAML parser")
    }
    defer { yaml_parser_delete(&parser) }
    var events: [YAMLEvent] = []
    let failure: YAMLSyntaxError? = bytes.withUnsafeBufferPointer { buffer in
        yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else {
                return syntaxError(of: parser, in: bytes)
            }
            defer { yaml_event_delete(&event) }
            let at = position(event.start_mark)
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return nil
            case YAML_DOCUMENT_START_EVENT:
                events.append(.documentStart(at))
            case YAML_DOCUMENT_END_EVENT:
                events.append(.documentEnd)
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                events.append(
                    .scalar(
                        value: text(scalar.value, length: scalar.length),
                        plain: scalar.style == YAML_PLAIN_SCALAR_STYLE,
                        anchor: name(scalar.anchor), at: at))
            case YAML_ALIAS_EVENT:
                events.append(.alias(anchor: name(event.data.alias.anchor) ?? "", at: at))
            case YAML_SEQUENCE_START_EVENT:
                events.append(.sequenceStart(anchor: name(event.data.sequence_start.anchor), at: at))
            case YAML_SEQUENCE_END_EVENT:
                events.append(.sequenceEnd)
            case YAML_MAPPING_START_EVENT:
                events.append(.mappingStart(anchor: name(event.data.mapping_start.anchor), at: at))
            case YAML_MAPPING_END_EVENT:
                events.append(.mappingEnd)
            default:
                break  // stream start, no-op events
            }
        }
    }
    if let failure { throw failure }
    return events
}

private func position(_ mark: yaml_mark_t) -> SourcePosition {
    SourcePosition(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
}

private func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?, length: Int) -> String {
    guard let pointer else { return "" }
    return String(decoding: UnsafeBufferPointer(start: pointer, count: length), as: UTF8.self)
}

private func name(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
    guard let pointer else { return nil }
    return String(cString: pointer)
}

/// Turns libyaml's error fields into a message and a position. Reader errors (bad UTF-8)
/// carry a byte offset instead of a mark; it is converted to a line and column here.
private func syntaxError(of parser: yaml_parser_t, in bytes: [UInt8]) -> YAMLSyntaxError {
    let problem = parser.problem.map { String(cString: $0) } ?? "unknown problem"
    if parser.error == YAML_READER_ERROR {
        return YAMLSyntaxError(
            position: position(ofByte: parser.problem_offset, in: bytes), message: "invalid YAML: \(problem)")
    }
    let at = position(parser.problem_mark)
    var message = "invalid YAML: \(problem)"
    if let context = parser.context.map({ String(cString: $0) }) {
        let mark = position(parser.context_mark)
        message += " (\(context) at line \(mark.line), column \(mark.column))"
    }
    if character(at: at, in: bytes) == "\t" {
        message += "; tabs cannot indent YAML, use spaces"
    }
    return YAMLSyntaxError(position: at, message: message)
}

/// The character at 1-based `position` of UTF-8 `bytes`, if there is one.
private func character(at position: SourcePosition, in bytes: [UInt8]) -> Character? {
    let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
    guard position.line <= lines.count else { return nil }
    let line = String(decoding: lines[position.line - 1], as: UTF8.self)
    return line.dropFirst(position.column - 1).first
}

/// 1-based line and column (in characters) of byte `offset` of UTF-8 `bytes`.
private func position(ofByte offset: Int, in bytes: [UInt8]) -> SourcePosition {
    var line = 1
    var column = 1
    for byte in bytes.prefix(offset) {
        if byte == 0x0A {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
    }
    return SourcePosition(line: line, column: column)
}
