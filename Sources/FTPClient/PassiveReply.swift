// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// Where a passive-mode reply says the data connection should go.
public enum PassiveEndpoint: Sendable, Equatable {
    /// A 229 reply (RFC 2428 §3): only a port; the host is the control connection's peer.
    case port(UInt16)
    /// A 227 reply (RFC 959 §4.1.2): an IPv4 address (dotted) and a port.
    case address(host: String, port: UInt16)

    /// The TCP port of the data connection.
    public var port: UInt16 {
        switch self {
        case .port(let port): return port
        case .address(_, let port): return port
        }
    }

    /// The host a data connection goes to: the control connection's `peer` for a 229 reply
    /// and, under the `.peer` policy, for a 227 reply too (only its port is used); under
    /// `.server` the 227 address, unless it is `0.0.0.0`.
    public func dataHost(peer: String, policy: PassiveAddressPolicy) -> String {
        switch self {
        case .port: return peer
        case .address(let host, _): return policy == .server && host != "0.0.0.0" ? host : peer
        }
    }

    /// Parses a 227 or 229 reply, whichever command it answered (servers answer PASV with
    /// 229 and EPSV with 227).
    ///
    /// - 227: the first run of six comma-separated numbers (a `-` sign allowed) anywhere in
    ///   the reply's text (RFC 1123 §4.1.2.6: parentheses and wording are not reliable); each
    ///   must be 0...255: a negative one (a server printing signed bytes) or one above 255 is
    ///   rejected, address or port, and no data connection is made.
    /// - 229: `(d<net-prt>d<net-addr>dPORTd)` with the same delimiter d (ASCII 33...126), port
    ///   1...65535. RFC 2428 §3 wants the first two fields empty; when a server fills them in
    ///   (`(|1|10.0.0.5|2121|)`) they are ignored: the port is used, on the control peer.
    /// - Throws: `FTPError.protocolViolation` when the reply has another code or no usable
    ///   numbers (a number negative or above 255, port 0 or above 65535, mismatched delimiters).
    public static func parse(_ reply: FTPReply) throws(FTPError) -> PassiveEndpoint {
        switch reply.code {
        case 227: return try parse227(reply.textLines.joined(separator: "\n"))
        case 229: return try parse229(reply.textLines.joined(separator: "\n"))
        default: throw .protocolViolation("expected a 227 or 229 reply, got \(reply.code) \(reply.text)")
        }
    }

    private static func parse227(_ text: String) throws(FTPError) -> PassiveEndpoint {
        guard let found = firstNumberRun(Array(text.utf8), minimumCount: 6) else {
            throw .protocolViolation("malformed 227 reply (no host/port numbers): \(text)")
        }
        guard found.count == 6 else {
            throw .protocolViolation("malformed 227 reply (\(found.count) numbers, need 6): \(text)")
        }
        for (index, value) in found.enumerated() where !(0...255).contains(value) {
            let field = index < 4 ? "address" : "port"
            throw .protocolViolation(
                "malformed 227 reply (\(field) number \(value) is not 0...255): \(text); `passive: false` (active mode) avoids it"
            )
        }
        let port = UInt16(found[4]) << 8 | UInt16(found[5])
        guard port != 0 else { throw .protocolViolation("227 reply names port 0: \(text)") }
        return .address(host: found[0..<4].map(String.init).joined(separator: "."), port: port)
    }

    /// The first run `n,n,...,n` of at least `minimumCount` decimal numbers in `bytes`, each
    /// with an optional `-` sign. Numbers longer than 6 digits are clamped to ±999999 (they are
    /// invalid anyway).
    private static func firstNumberRun(_ bytes: [UInt8], minimumCount: Int) -> [Int]? {
        func isDigit(_ index: Int) -> Bool {
            index < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index])
        }
        /// Whether a number (its sign, or its first digit) starts at `index`.
        func startsNumber(_ index: Int) -> Bool {
            isDigit(index) || (index < bytes.count && bytes[index] == UInt8(ascii: "-") && isDigit(index + 1))
        }
        var start = 0
        while start < bytes.count {
            guard startsNumber(start), start == 0 || !isDigit(start - 1) else {
                start += 1
                continue
            }
            var numbers: [Int] = []
            var index = start
            while startsNumber(index) {
                let negative = bytes[index] == UInt8(ascii: "-")
                if negative { index += 1 }
                var value = 0
                while isDigit(index) {
                    value = min(value * 10 + Int(bytes[index] - 48), 999_999)
                    index += 1
                }
                numbers.append(negative ? -value : value)
                guard index < bytes.count, bytes[index] == UInt8(ascii: ","), startsNumber(index + 1) else { break }
                index += 1
            }
            if numbers.count >= minimumCount { return numbers }
            start = max(index, start + 1)
        }
        return nil
    }

    private static func parse229(_ text: String) throws(FTPError) -> PassiveEndpoint {
        let bytes = Array(text.utf8)
        guard let open = bytes.firstIndex(of: UInt8(ascii: "(")) else {
            throw .protocolViolation("malformed 229 reply (no parenthesis): \(text)")
        }
        let first = open + 1
        guard first < bytes.count, (33...126).contains(bytes[first]) else {
            throw .protocolViolation("malformed 229 reply (no delimiter): \(text)")
        }
        let delimiter = bytes[first]
        // Four delimiters: net-prt, net-addr and the port lie between them; a ")" follows.
        var marks = [first]
        var index = first + 1
        while index < bytes.count, marks.count < 4 {
            if bytes[index] == delimiter {
                marks.append(index)
            } else if bytes[index] == UInt8(ascii: ")") {
                break
            }
            index += 1
        }
        guard marks.count == 4 else {
            throw .protocolViolation("malformed 229 reply (need four identical delimiters): \(text)")
        }
        guard marks[3] + 1 < bytes.count, bytes[marks[3] + 1] == UInt8(ascii: ")") else {
            throw .protocolViolation("malformed 229 reply (missing closing parenthesis): \(text)")
        }
        let digits = bytes[(marks[2] + 1)..<marks[3]]
        guard !digits.isEmpty else { throw .protocolViolation("malformed 229 reply (empty port): \(text)") }
        guard digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw .protocolViolation("malformed 229 reply (the port is not a number): \(text)")
        }
        let port = digits.reduce(0) { min($0 * 10 + Int($1 - 48), 999_999) }
        guard (1...65_535).contains(port) else {
            throw .protocolViolation("malformed 229 reply (port out of range 1...65535): \(text)")
        }
        return .port(UInt16(port))
    }
}
