// SPDX-License-Identifier: Apache-2.0
/// A position in a text file, 1-based.
public struct SourcePosition: Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
    public var description: String { "\(line):\(column)" }
}

/// A value of the TOML subset policy files use, with where it was written.
public enum PolicyValue: Hashable, Sendable {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    case array([PolicyValue])

    var typeName: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .float: "a number"
        case .boolean: "a boolean"
        case .array: "an array"
        }
    }
}

/// One `key = value` line, with the table it is in and the positions of key and value.
public struct PolicyEntry: Hashable, Sendable {
    public var table: String
    public var key: String
    public var value: PolicyValue
    public var keyPosition: SourcePosition
    public var valuePosition: SourcePosition
}

/// A policy file that could not be read, with where and which rule it broke.
public struct PolicyFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var position: SourcePosition
    public var message: String

    public init(file: String, position: SourcePosition, message: String) {
        self.file = file
        self.position = position
        self.message = message
    }

    /// `file:line:column: message`, as compilers print it.
    public var description: String { "\(file):\(position.line):\(position.column): \(message)" }
}

/// Reads the subset of TOML that policy files use: comments, `[table]` headers, and `key = value`
/// where a value is a basic string, an integer, a float, a boolean, or a one-line array of those.
/// Every entry keeps the line and column of its key and value.
public enum TOMLSubset {
    public static func parse(_ text: String, file: String) throws(PolicyFileError) -> [PolicyEntry] {
        var entries: [PolicyEntry] = []
        var table = ""
        var seen: Set<String> = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = Array(raw)
            var cursor = Cursor(characters: line, line: number + 1, file: file)
            cursor.skipSpaces()
            if cursor.atEnd || cursor.peek == "#" { continue }
            if cursor.peek == "[" {
                let start = cursor.position
                cursor.advance()
                let name = cursor.take { $0 != "]" }.trimmingCharacters()
                guard cursor.peek == "]", !name.isEmpty,
                    name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." })
                else { throw cursor.error(at: start, "a table header is [name]") }
                cursor.advance()
                try cursor.expectEndOfLine()
                guard !seen.contains("[\(name)]") else { throw cursor.error(at: start, "table [\(name)] is defined twice") }
                seen.insert("[\(name)]")
                table = name
                continue
            }
            let keyPosition = cursor.position
            let key = cursor.take { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
            guard !key.isEmpty else { throw cursor.error(at: keyPosition, "expected a key (letters, digits, - and _)") }
            cursor.skipSpaces()
            guard cursor.peek == "=" else { throw cursor.error(at: cursor.position, "expected = after \(key)") }
            cursor.advance()
            cursor.skipSpaces()
            let valuePosition = cursor.position
            let value = try cursor.value()
            try cursor.expectEndOfLine()
            let qualified = table.isEmpty ? key : "\(table).\(key)"
            guard !seen.contains(qualified) else { throw cursor.error(at: keyPosition, "\(qualified) is set twice") }
            seen.insert(qualified)
            entries.append(PolicyEntry(table: table, key: key, value: value, keyPosition: keyPosition,
                                       valuePosition: valuePosition))
        }
        return entries
    }

    struct Cursor {
        let characters: [Character]
        let line: Int
        let file: String
        var index = 0

        var atEnd: Bool { index >= characters.count }
        var peek: Character? { atEnd ? nil : characters[index] }
        var position: SourcePosition { SourcePosition(line: line, column: index + 1) }

        mutating func advance() { index += 1 }

        mutating func skipSpaces() {
            while let c = peek, c == " " || c == "\t" || c == "\r" { advance() }
        }

        mutating func take(while predicate: (Character) -> Bool) -> String {
            var result = ""
            while let c = peek, predicate(c) {
                result.append(c)
                advance()
            }
            return result
        }

        func error(at position: SourcePosition, _ message: String) -> PolicyFileError {
            PolicyFileError(file: file, position: position, message: message)
        }

        mutating func expectEndOfLine() throws(PolicyFileError) {
            skipSpaces()
            if let c = peek, c != "#" { throw error(at: position, "unexpected '\(c)' after the value") }
        }

        mutating func value() throws(PolicyFileError) -> PolicyValue {
            let start = position
            guard let c = peek else { throw error(at: start, "expected a value") }
            if c == "\"" {
                advance()
                var text = ""
                while let next = peek, next != "\"" {
                    if next == "\\" {
                        advance()
                        switch peek {
                        case "n": text.append("\n")
                        case "t": text.append("\t")
                        case "\"": text.append("\"")
                        case "\\": text.append("\\")
                        default: throw error(at: position, "unknown escape in a string")
                        }
                    } else {
                        text.append(next)
                    }
                    advance()
                }
                guard peek == "\"" else { throw error(at: start, "a string is not closed") }
                advance()
                return .string(text)
            }
            if c == "[" {
                advance()
                var items: [PolicyValue] = []
                skipSpaces()
                while peek != "]" {
                    items.append(try value())
                    skipSpaces()
                    if peek == "," {
                        advance()
                        skipSpaces()
                    } else if peek != "]" {
                        throw error(at: position, "expected , or ] in an array")
                    }
                }
                advance()
                return .array(items)
            }
            let word = take { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "+" || $0 == "_" }
            switch word {
            case "true": return .boolean(true)
            case "false": return .boolean(false)
            default:
                let digits = word.filter { $0 != "_" }
                if let integer = Int(digits) { return .integer(integer) }
                if let number = Double(digits), digits.contains(".") { return .float(number) }
                throw error(at: start, word.isEmpty ? "expected a value" : "'\(word)' is not a value (strings need quotes)")
            }
        }
    }
}

extension String {
    func trimmingCharacters() -> String {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
