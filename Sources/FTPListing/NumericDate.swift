// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 The ftpsync Authors

/// A date written as three numbers with one separator (`12-30-97`, `2004/06/23`, `18.09.06`),
/// as the mainframe and minicomputer listings print it; fields not yet checked against the calendar.
struct NumericDate {
    /// The three numbers in the order written.
    var fields: (Int, Int, Int)
    /// How many digits each had.
    var widths: (Int, Int, Int)
    /// The separator: `-`, `/` or `.`.
    var separator: UInt8

    /// Reads the token `from..<to`; nil unless it is 1-4 digits, a separator, 1-4 digits, the same
    /// separator and 1-4 digits.
    static func scan(_ line: Line, _ from: Int, _ to: Int) -> NumericDate? {
        var numbers = (0, 0, 0)
        var widths = (0, 0, 0)
        var index = 0
        var start = from
        var separator: UInt8 = 0
        for i in from...to {
            if i < to && Byte.isDigit(line[i]) { continue }
            if i < to {
                let b = line[i]
                guard b == 0x2D || b == 0x2F || b == 0x2E, separator == 0 || b == separator, index < 2 else {
                    return nil
                }
                separator = b
            }
            guard i - start >= 1, i - start <= 4, let value = line.smallNumber(start, i) else { return nil }
            switch index {
            case 0: (numbers.0, widths.0) = (value, i - start)
            case 1: (numbers.1, widths.1) = (value, i - start)
            default: (numbers.2, widths.2) = (value, i - start)
            }
            index += 1
            start = i + 1
        }
        guard index == 3 else { return nil }
        return NumericDate(fields: numbers, widths: widths, separator: separator)
    }
}
