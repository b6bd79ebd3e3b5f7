// SPDX-License-Identifier: Apache-2.0
/// Strings, numbers, booleans and dates, as TOML 1.0 writes them.
extension TOMLScanner {
    // MARK: Strings

    /// A basic (`"…"`), multi-line basic (`"""…"""`), literal (`'…'`) or multi-line literal (`'''…'''`) string.
    mutating func string() throws(PolicyFileError) -> String {
        let start = position
        let quote = peek!
        let literal = quote == "'"
        let multiLine = looking(at: String(repeating: quote, count: 3))
        advance(multiLine ? 3 : 1)
        if multiLine, atNewline { advance() }
        var text = ""
        while true {
            guard let c = peek else { throw error(at: start, "a string is not closed") }
            if c == quote {
                if !multiLine {
                    advance()
                    return text
                }
                var quotes = 0
                while peek(quotes) == quote { quotes += 1 }
                if quotes >= 3 {
                    guard quotes <= 5 else { throw error(at: position, "too many quotes at the end of a string") }
                    text += String(repeating: quote, count: quotes - 3)
                    advance(quotes)
                    return text
                }
                text += String(repeating: quote, count: quotes)
                advance(quotes)
            } else if atNewline {
                guard multiLine else { throw error(at: start, "a string is not closed") }
                text.append("\n")
                advance()
            } else if c == "\\" && !literal {
                try escape(into: &text, multiLine: multiLine)
            } else {
                guard c == "\t" || !(c.asciiValue.map { $0 < 0x20 || $0 == 0x7f } ?? false) else {
                    throw error(at: position, "a control character in a string (write it as an escape)")
                }
                text.append(c)
                advance()
            }
        }
    }

    private mutating func escape(into text: inout String, multiLine: Bool) throws(PolicyFileError) {
        let start = position
        advance()
        let simple: [Character: Character] = ["b": "\u{8}", "t": "\t", "n": "\n", "f": "\u{c}", "r": "\r",
                                              "\"": "\"", "\\": "\\"]
        if let c = peek, let replacement = simple[c] {
            text.append(replacement)
            advance()
            return
        }
        if peek == "u" || peek == "U" {
            let length = peek == "u" ? 4 : 8
            advance()
            var hex = ""
            for _ in 0..<length {
                guard let c = peek, c.isHexDigit else { break }
                hex.append(c)
                advance()
            }
            guard hex.count == length, let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) else {
                throw error(at: start, "\\u takes 4 and \\U 8 hex digits of a Unicode scalar value")
            }
            text.unicodeScalars.append(scalar)
            return
        }
        if multiLine {
            // A backslash ending a line drops the line break and the blanks after it.
            var probe = 0
            while peek(probe) == " " || peek(probe) == "\t" { probe += 1 }
            if peek(probe) == "\n" || peek(probe) == "\r\n" {
                while peek == " " || peek == "\t" || atNewline { advance() }
                return
            }
        }
        throw error(at: start, "unknown escape in a string")
    }

    // MARK: Numbers, booleans, dates

    static func isScalarCharacter(_ c: Character) -> Bool {
        c.isASCII && (c.isLetter || c.isNumber || "_+-.:".contains(c))
    }

    mutating func scalar() throws(PolicyFileError) -> PolicyValue {
        let start = position
        var word = ""
        while let c = peek, Self.isScalarCharacter(c) {
            word.append(c)
            advance()
        }
        // A date and a time may be separated by a space.
        if Self.dateShape(word) == "9999-99-99", peek == " ", peek(1)?.isNumber == true, peek(2)?.isNumber == true,
            peek(3) == ":"
        {
            word.append(" ")
            advance()
            while let c = peek, Self.isScalarCharacter(c) {
                word.append(c)
                advance()
            }
        }
        if let value = Self.scalar(word) { return value }
        let message: String
        if word.isEmpty {
            message = atEnd || atNewline || peek == "#" ? "expected a value" : "expected a value, not '\(peek!)'"
        } else if word.first!.isLetter && !["inf", "nan"].contains(word) {
            message = "'\(word)' is not a value (strings need quotes)"
        } else {
            message = "'\(word)' is not a TOML number, boolean or date"
        }
        throw error(at: start, message)
    }

    static func scalar(_ word: String) -> PolicyValue? {
        switch word {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        case "inf", "+inf": return .float(.infinity)
        case "-inf": return .float(-.infinity)
        case "nan", "+nan", "-nan": return .float(.nan)
        default: break
        }
        if isDateTime(word) { return .dateTime(word) }
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where word.hasPrefix(prefix) {
            let digits = String(word.dropFirst(2))
            guard underscoresBetweenDigits(digits, hex: radix == 16) else { return nil }
            return Int(digits.filter { $0 != "_" }, radix: radix).map(PolicyValue.integer)
        }
        let unsigned = word.first == "+" || word.first == "-" ? String(word.dropFirst()) : word
        guard let first = unsigned.first, first.isNumber, underscoresBetweenDigits(unsigned, hex: false) else { return nil }
        let integerPart = unsigned.prefix { $0.isNumber || $0 == "_" }
        guard integerPart == "0" || integerPart.first != "0" else { return nil }
        let plain = word.filter { $0 != "_" }
        if !plain.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
            return Int(plain).map(PolicyValue.integer)
        }
        // A dot has digits on both sides; an exponent has digits after its sign.
        let characters = Array(plain)
        for (i, c) in characters.enumerated() where c == "." {
            guard i > 0, characters[i - 1].isNumber, i + 1 < characters.count, characters[i + 1].isNumber else { return nil }
        }
        guard let number = Double(plain), number.isFinite else { return nil }
        return .float(number)
    }

    static func underscoresBetweenDigits(_ text: String, hex: Bool) -> Bool {
        let characters = Array(text)
        func isDigit(_ c: Character) -> Bool { hex ? c.isHexDigit : c.isNumber }
        guard !characters.isEmpty else { return false }
        for (i, c) in characters.enumerated() where c == "_" {
            guard i > 0, i + 1 < characters.count, isDigit(characters[i - 1]), isDigit(characters[i + 1]) else { return false }
        }
        return true
    }

    /// Digits as 9, everything else as it is: `1979-05-27` is `9999-99-99`.
    static func dateShape<S: StringProtocol>(_ text: S) -> String {
        String(text.map { $0.isASCII && $0.isNumber ? "9" : $0 })
    }

    /// An offset or local date-time, a local date or a local time.
    static func isDateTime(_ word: String) -> Bool {
        /// `hh:mm:ss`, an optional fraction, and (after a date) an optional offset.
        func isTime(_ text: Substring, offsetAllowed: Bool) -> Bool {
            var time = text
            if offsetAllowed {
                if time.last == "Z" || time.last == "z" {
                    time = time.dropLast()
                } else if time.count > 8, let sign = time.dropFirst(8).firstIndex(where: { $0 == "+" || $0 == "-" }) {
                    guard dateShape(time[sign...].dropFirst()) == "99:99" else { return false }
                    time = time[..<sign]
                }
            }
            let fraction = time.dropFirst(8)
            return dateShape(time.prefix(8)) == "99:99:99"
                && (fraction.isEmpty || (fraction.first == "." && fraction.count > 1 && fraction.dropFirst().allSatisfy(\.isNumber)))
        }
        guard dateShape(word.prefix(10)) == "9999-99-99" else { return isTime(Substring(word), offsetAllowed: false) }
        if word.count == 10 { return true }
        let separator = word[word.index(word.startIndex, offsetBy: 10)]
        return "Tt ".contains(separator) && isTime(word.dropFirst(11), offsetAllowed: true)
    }
}
