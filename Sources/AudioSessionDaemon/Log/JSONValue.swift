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
        var text = ""
        append(to: &text)
        return text
    }

    /// Appends the compact JSON text to `text`: one buffer for the whole value, no string per level
    /// (the journal is serialized in the step a mute waits for).
    public func append(to text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .number(let value):
            guard value.isFinite else { return text += "null" }  // JSON has no NaN or infinities
            if value.rounded() == value && abs(value) < 1e15 { text += String(Int64(value)) } else { text += "\(value)" }
        case .string(let value): Self.quote(value, to: &text)
        case .array(let items):
            text += "["
            for (index, item) in items.enumerated() {
                if index > 0 { text += "," }
                item.append(to: &text)
            }
            text += "]"
        case .object(let entries):
            text += "{"
            for (index, (key, value)) in entries.enumerated() {
                if index > 0 { text += "," }
                Self.quote(key, to: &text)
                text += ":"
                value.append(to: &text)
            }
            text += "}"
        }
    }

    /// Text for people: strings bare, the rest as JSON.
    public var plain: String {
        if case .string(let value) = self { return value }
        return serialized
    }

    /// Appends `value` as a JSON string; a string with nothing to escape goes in whole.
    static func quote(_ value: String, to text: inout String) {
        if JSONEscaping.needsNoEscape(value) { return text += "\"" + value + "\"" }
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        JSONEscaping.escape(value) { bytes.append($0) }
        bytes.append(UInt8(ascii: "\""))
        text += String(decoding: bytes, as: UTF8.self)
    }
}
