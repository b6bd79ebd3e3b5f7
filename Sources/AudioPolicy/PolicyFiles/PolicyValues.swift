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

/// A TOML value of a policy file.
public enum PolicyValue: Hashable, Sendable {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    /// An offset or local date-time, date or time, as written.
    case dateTime(String)
    case array([PolicyValue])
    /// An inline table inside an array (one given as a key's value is read as that key's table).
    case table([String: PolicyValue])

    var typeName: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .float: "a number"
        case .boolean: "a boolean"
        case .dateTime: "a date or time"
        case .array: "an array"
        case .table: "a table"
        }
    }
}

/// One value of the file, by the table it is in and its key, with where key and value were written.
/// `a.b.c = 1` under `[t]` is table `t.a.b`, key `c`.
public struct PolicyEntry: Hashable, Sendable {
    public var table: String
    public var key: String
    public var value: PolicyValue
    public var keyPosition: SourcePosition
    public var valuePosition: SourcePosition
    /// Where each item of an array value starts (empty for other values).
    public var itemPositions: [SourcePosition] = []
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
