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
    /// - 227: the first run of six comma-separated numbers anywhere in the reply's text
    ///   (RFC 1123 §4.1.2.6: parentheses and wording are not reliable); each must be 0...255.
    /// - 229: `(dddPORTd)` with four identical delimiters d (ASCII 33...126), port 1...65535.
    /// - Throws: `FTPError.protocolViolation` when the reply has another code or no usable
    ///   address, an octet above 255, a port out of range or mismatched delimiters.
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
        if let bad = found.first(where: { $0 > 255 }) {
            throw .protocolViolation("malformed 227 reply (number \(bad) > 255): \(text)")
        }
        let host = found[0..<4].map(String.init).joined(separator: ".")
        let port = UInt16(found[4]) << 8 | UInt16(found[5])
        guard port != 0 else { throw .protocolViolation("227 reply names port 0: \(text)") }
        return .address(host: host, port: port)
    }

    /// The first run `n,n,...,n` of at least `minimumCount` decimal numbers in `bytes`.
    /// Numbers longer than 6 digits are clamped to 999999 (they are invalid anyway).
    private static func firstNumberRun(_ bytes: [UInt8], minimumCount: Int) -> [Int]? {
        func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        var start = 0
        while start < bytes.count {
            guard isDigit(bytes[start]), start == 0 || !isDigit(bytes[start - 1]) else {
                start += 1
                continue
            }
            var numbers: [Int] = []
            var index = start
            while index < bytes.count, isDigit(bytes[index]) {
                var value = 0
                while index < bytes.count, isDigit(bytes[index]) {
                    value = min(value * 10 + Int(bytes[index] - 48), 999_999)
                    index += 1
                }
                numbers.append(value)
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: ","), isDigit(bytes[index + 1]) else {
                    break
                }
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
        var index = open + 1
        guard index < bytes.count, (33...126).contains(bytes[index]) else {
            throw .protocolViolation("malformed 229 reply (no delimiter): \(text)")
        }
        let delimiter = bytes[index]
        guard index + 2 < bytes.count, bytes[index + 1] == delimiter, bytes[index + 2] == delimiter else {
            throw .protocolViolation("malformed 229 reply (need four identical delimiters): \(text)")
        }
        index += 3
        var port = 0
        var digits = 0
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            if port <= 65_535 { port = port * 10 + Int(bytes[index] - 48) }
            digits += 1
            index += 1
        }
        guard digits > 0 else { throw .protocolViolation("malformed 229 reply (empty port): \(text)") }
        guard index < bytes.count, bytes[index] == delimiter else {
            throw .protocolViolation("malformed 229 reply (missing closing delimiter): \(text)")
        }
        guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ")") else {
            throw .protocolViolation("malformed 229 reply (missing closing parenthesis): \(text)")
        }
        guard (1...65_535).contains(port) else {
            throw .protocolViolation("malformed 229 reply (port out of range > 65535): \(text)")
        }
        return .port(UInt16(port))
    }
}
