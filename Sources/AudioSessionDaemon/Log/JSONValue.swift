// SPDX-License-Identifier: Apache-2.0
/// A JSON value with ordered object keys, for the event log and snapshots.
public indirect enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.serialized == rhs.serialized }
    public func hash(into hasher: inout Hasher) { hasher.combine(serialized) }

    public static func int<T: BinaryInteger>(_ value: T) -> JSONValue { .number(Double(value)) }

    /// Compact JSON text.
    public var serialized: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value):
            guard value.isFinite else { return "null" }  // JSON has no NaN or infinities
            if value.rounded() == value && abs(value) < 1e15 { return String(Int64(value)) }
            return "\(value)"
        case .string(let value): return Self.quote(value)
        case .array(let items): return "[" + items.map(\.serialized).joined(separator: ",") + "]"
        case .object(let entries):
            return "{" + entries.map { Self.quote($0.0) + ":" + $0.1.serialized }.joined(separator: ",") + "}"
        }
    }

    /// Text for people: strings bare, the rest as JSON.
    public var plain: String {
        if case .string(let value) = self { return value }
        return serialized
    }

    static func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
