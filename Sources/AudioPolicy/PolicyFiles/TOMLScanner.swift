// SPDX-License-Identifier: Apache-2.0
/// Reads TOML 1.0's pieces from a whole file: keys, strings of all four kinds, integers (decimal,
/// hex, octal, binary), floats (with exponents, `inf`, `nan`), booleans, dates and times, arrays over
/// several lines (with comments and a trailing comma) and inline tables. Knows its line and column.
struct TOMLScanner {
    let characters: [Character]
    let file: String
    private(set) var index = 0
    private var line = 1
    private var lineStart = 0

    init(_ text: String, file: String) {
        characters = Array(text)
        self.file = file
    }

    var atEnd: Bool { index >= characters.count }
    var peek: Character? { atEnd ? nil : characters[index] }
    var position: SourcePosition { SourcePosition(line: line, column: index - lineStart + 1) }
    var atNewline: Bool { peek == "\n" || peek == "\r\n" }

    func peek(_ offset: Int) -> Character? {
        index + offset < characters.count ? characters[index + offset] : nil
    }

    func looking(at text: String) -> Bool {
        text.enumerated().allSatisfy { peek($0.offset) == $0.element }
    }

    mutating func advance(_ count: Int = 1) {
        for _ in 0..<count where !atEnd {
            let wasNewline = atNewline
            index += 1
            if wasNewline {
                line += 1
                lineStart = index
            }
        }
    }

    func error(at position: SourcePosition, _ message: String) -> PolicyFileError {
        PolicyFileError(file: file, position: position, message: message)
    }

    mutating func skipSpaces() {
        while peek == " " || peek == "\t" { advance() }
    }

    mutating func skipComment() {
        if peek == "#" { while !atEnd && !atNewline { advance() } }
    }

    /// Spaces, comments and line breaks, as between the items of an array.
    mutating func skipBlank() {
        while true {
            skipSpaces()
            skipComment()
            guard atNewline else { return }
            advance()
        }
    }

    /// The rest of a line after a header or a value: spaces, a comment, the line break.
    mutating func expectEndOfLine(after what: String) throws(PolicyFileError) {
        skipSpaces()
        skipComment()
        if atEnd { return }
        guard atNewline else { throw error(at: position, "unexpected '\(peek!)' after \(what)") }
        advance()
    }

    // MARK: Keys

    static func isBare(_ c: Character) -> Bool {
        c.isASCII && (c.isLetter || c.isNumber || c == "-" || c == "_")
    }

    /// A key, dotted or not: bare words and quoted strings joined by dots.
    mutating func key() throws(PolicyFileError) -> [String] {
        var segments: [String] = []
        while true {
            skipSpaces()
            let start = position
            if peek == "\"" || peek == "'" {
                guard !looking(at: "\"\"\""), !looking(at: "'''") else {
                    throw error(at: start, "a key cannot be a multi-line string")
                }
                segments.append(try string())
            } else {
                var word = ""
                while let c = peek, Self.isBare(c) {
                    word.append(c)
                    advance()
                }
                guard !word.isEmpty else { throw error(at: start, "expected a key (letters, digits, - and _, or a quoted string)") }
                segments.append(word)
            }
            skipSpaces()
            guard peek == "." else { return segments }
            advance()
        }
    }

    // MARK: Values

    /// Any value, from its first character.
    mutating func value() throws(PolicyFileError) -> PolicyValue {
        let start = position
        switch peek {
        case nil: throw error(at: start, "expected a value")
        case "\"", "'": return .string(try string())
        case "[": return .array(try array().map(\.value))
        case "{":
            var table: [String: PolicyValue] = [:]
            for (path, value, keyPosition, _) in try inlineTable() {
                let name = path.joined(separator: ".")
                guard table[name] == nil else { throw error(at: keyPosition, "\(name) is set twice") }
                table[name] = value
            }
            return .table(table)
        default: return try scalar()
        }
    }

    /// `{ key = value, … }` on one line: each key path with its value and positions.
    mutating func inlineTable() throws(PolicyFileError) -> [([String], PolicyValue, SourcePosition, SourcePosition)] {
        advance()
        skipSpaces()
        var entries: [([String], PolicyValue, SourcePosition, SourcePosition)] = []
        if peek == "}" {
            advance()
            return entries
        }
        while true {
            skipSpaces()
            let keyPosition = position
            let path = try key()
            guard peek == "=" else { throw error(at: position, "expected = after \(path.joined(separator: "."))") }
            advance()
            skipSpaces()
            let valuePosition = position
            if peek == "{" {
                for (inner, value, innerKey, innerValue) in try inlineTable() {
                    entries.append((path + inner, value, innerKey, innerValue))
                }
            } else {
                entries.append((path, try value(), keyPosition, valuePosition))
            }
            skipSpaces()
            if peek == "," {
                advance()
                continue
            }
            guard peek == "}" else { throw error(at: position, "expected , or } in an inline table (it stays on one line)") }
            advance()
            return entries
        }
    }

    /// An array's items, each with where it starts.
    mutating func array() throws(PolicyFileError) -> [(value: PolicyValue, position: SourcePosition)] {
        let start = position
        advance()
        var items: [(value: PolicyValue, position: SourcePosition)] = []
        while true {
            skipBlank()
            if atEnd { throw error(at: start, "an array is not closed") }
            if peek == "]" {
                advance()
                return items
            }
            let itemPosition = position
            items.append((try value(), itemPosition))
            skipBlank()
            if atEnd { throw error(at: start, "an array is not closed") }
            if peek == "," {
                advance()
            } else if peek != "]" {
                throw error(at: position, "expected , or ] in an array")
            }
        }
    }
}
