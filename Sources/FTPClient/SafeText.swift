// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// The one set of rules by which text from a server (replies, banners, names, listing lines,
/// and errors quoting them) is made safe to show on a terminal or write to a log.
///
/// Escaped, so that a device can neither move the cursor, retitle the window, clear the screen
/// nor fake a report line, and so that what is shown still tells what was sent:
/// - C0 controls U+0000–U+001F (tab, CR and LF too) and DEL U+007F as `\xNN` (`\x1b`, `\x09`);
/// - C1 controls U+0080–U+009F (`CSI` is U+009B) as `\u{NN}` (`\u{9b}`);
/// - the code points that stand for a byte no encoding could decode (U+F780–U+F7FF, byte
///   0x80–0xFF; see `ListingNameCodec` and `NameCodec`) as that byte, `\xNN` (`\xff`).
///
/// Everything else is kept, backslashes included, so escaping twice changes nothing.
public enum SafeText {
    /// `text` with every scalar the rules name escaped; line breaks too (one line stays one line).
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                out.append(scalar)
                continue
            }
            out.append(contentsOf: escape(scalar).unicodeScalars)
        }
        return String(out)
    }

    /// `text` escaped line by line: its line feeds are kept (our own multi-line output), every
    /// other scalar follows `escaped`.
    public static func escapedLines(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 != "\n" && needsEscape($0) }) else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }
            .joined(separator: "\n")
    }

    /// A JSON document (as `JSONEncoder` writes it, which already escapes C0 controls) made safe
    /// by the same rules and still the same document once parsed: DEL and C1 controls become
    /// the JSON escapes `\u007f`, `\u009b`. An undecodable byte's code point stays as it is: it
    /// moves no cursor, and a program reading the JSON gets the exact name back (what
    /// `NameCodec.encode` turns into the server's bytes), where the text `\xNN` would be lossy.
    public static func escapedJSON(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: isControl) else { return json }
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            let value = scalar.value
            if value == 0x7F || (0x80...0x9F).contains(value) {
                out.append(contentsOf: ("\\u00" + hex(value, digits: 2)).unicodeScalars)
            } else {
                out.append(scalar)  // C0 controls: already escaped by the encoder
            }
        }
        return String(out)
    }

    /// True for a C0, DEL or C1 control.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value)
    }

    /// True for a scalar the rules escape.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || (0xF780...0xF7FF).contains(value)
    }

    /// The escape of one scalar that `needsEscape`.
    private static func escape(_ scalar: Unicode.Scalar) -> String {
        let value = scalar.value
        if value < 0x20 || value == 0x7F { return "\\x" + hex(value, digits: 2) }
        if value <= 0x9F { return "\\u{" + hex(value, digits: 2) + "}" }
        return "\\x" + hex(value - 0xF700, digits: 2)
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
