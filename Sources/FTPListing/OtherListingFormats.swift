// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// The listing formats that are neither UNIX-like nor DOS-like: OpenVMS, IBM OS/2, OS/400, MVS and
/// z/VM, HP NonStop, OS-9. Tried only after the UNIX and DOS parsers declined a
/// line; each reader recognises its format by the shape of the whole line, so the order only
/// matters between shapes that cannot both match.
extension ListingReader {
    /// Reads a line in one of these formats, or recognises its headers and totals as noise; nil
    /// when none of them applies.
    func parseOtherFormat(_ line: Line) -> ParsedLine? {
        if isVMSNoise(line) || isMVSHeader(line) || isTandemHeader(line) { return .ignored }
        if let result = parseVMS(line) { return result }
        if let result = parseOS2(line) { return result }
        if let result = parseOS400(line) { return result }
        if let result = parseMVSDataset(line) { return result }
        if let result = parseMVSMember(line) { return result }
        if let result = parseTandem(line) { return result }
        if let result = parseZVM(line) { return result }
        return parseOS9(line)
    }
}
