import Glibc

/// Converts path names between Swift strings and the bytes a server uses for file names:
/// UTF-8 (RFC 2640) or a legacy encoding (gbk, gb18030, latin1, shift_jis, ...) via iconv(3).
public struct NameCodec: Sendable {
    /// The encoding name as configured, or nil for UTF-8.
    public let encoding: String?

    /// The UTF-8 codec (no conversion; RFC 2640).
    public static let utf8 = NameCodec()

    private init() { self.encoding = nil }

    /// Creates a codec for `encoding`; nil, "utf-8" and "utf8" mean UTF-8 (no conversion).
    /// - Throws: `FTPError.invalidName` when iconv does not know the encoding.
    public init(encoding: String?) throws(FTPError) {
        if let name = encoding, !["utf-8", "utf8"].contains(name.lowercased()) {
            let descriptor = iconv_open(name, "UTF-8")
            guard Int(bitPattern: descriptor) != -1 else {
                throw .invalidName(name: name, reason: "unknown file-name encoding (see `iconv -l`)")
            }
            iconv_close(descriptor)
            self.encoding = name
        } else {
            self.encoding = nil
        }
    }

    /// The bytes to send for `name`.
    /// - Throws: `FTPError.invalidName` when `name` contains CR, LF or NUL (they would end or
    ///   corrupt the command line, RFC 959 §4.1.3) or a character the encoding cannot hold.
    public func encode(_ name: String) throws(FTPError) -> [UInt8] {
        let utf8 = Array(name.utf8)
        if utf8.contains(where: { $0 == 0 || $0 == 10 || $0 == 13 }) {
            throw .invalidName(name: name, reason: "it contains CR, LF or NUL")
        }
        guard let encoding else { return utf8 }
        guard let bytes = Self.convert(utf8, from: "UTF-8", to: encoding) else {
            throw .invalidName(name: name, reason: "it has characters that \(encoding) cannot represent")
        }
        return bytes
    }

    /// The name that `bytes` stand for. Bytes that are not valid in the encoding become
    /// U+FFFD (the listing keeps the raw bytes for commands).
    public func decode(_ bytes: [UInt8]) -> String {
        if let encoding, let utf8 = Self.convert(bytes, from: encoding, to: "UTF-8") {
            return String(decoding: utf8, as: UTF8.self)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Converts `input` with iconv; nil when a sequence is invalid or unrepresentable.
    static func convert(_ input: [UInt8], from source: String, to target: String) -> [UInt8]? {
        if input.isEmpty { return [] }
        let descriptor = iconv_open(target, source)
        guard Int(bitPattern: descriptor) != -1 else { return nil }
        defer { iconv_close(descriptor) }
        var output = [UInt8](repeating: 0, count: input.count * 4 + 16)
        var source = input.map { CChar(bitPattern: $0) }
        let outputCount = output.count
        let produced: Int? = source.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBytes { outBuffer in
                var inPointer: UnsafeMutablePointer<CChar>? = inBuffer.baseAddress
                var inLeft = inBuffer.count
                var outPointer: UnsafeMutablePointer<CChar>? = outBuffer.baseAddress?.assumingMemoryBound(
                    to: CChar.self)
                var outLeft = outputCount
                let result = iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft)
                guard result != -1, inLeft == 0 else { return nil }
                // Flush any shift state (stateful encodings such as ISO-2022-JP).
                guard iconv(descriptor, nil, nil, &outPointer, &outLeft) != -1 else { return nil }
                return outputCount - outLeft
            }
        }
        guard let produced else { return nil }
        return Array(output.prefix(produced))
    }
}
