// SPDX-License-Identifier: Apache-2.0
/// A D-Bus value of any type the bridge's contract uses.
public indirect enum BusValue: Hashable, Sendable, CustomStringConvertible {
    case byte(UInt8)
    case bool(Bool)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// An array with its element signature (needed when it is empty).
    case array(element: String, [BusValue])
    /// A dictionary `a{kv}` with key and value signatures, entries in order.
    case dictionary(key: String, value: String, [BusDictEntry])
    case structure([BusValue])
    case variant(BusValue)

    /// The value's D-Bus signature.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .bool: "b"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .array(let element, _): "a" + element
        case .dictionary(let key, let value, _): "a{" + key + value + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    public var description: String {
        switch self {
        case .byte(let v): "\(v)"
        case .bool(let v): "\(v)"
        case .int32(let v): "\(v)"
        case .uint32(let v): "\(v)"
        case .int64(let v): "\(v)"
        case .uint64(let v): "\(v)"
        case .double(let v): "\(v)"
        case .string(let v): "\"\(v)\""
        case .objectPath(let v): v
        case .signature(let v): "g\"\(v)\""
        case .array(_, let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .dictionary(_, _, let entries): "{" + entries.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        case .structure(let fields): "(" + fields.map(\.description).joined(separator: ", ") + ")"
        case .variant(let inner): "<\(inner)>"
        }
    }

    // MARK: Building

    /// `as`.
    public static func strings(_ items: [String]) -> BusValue { .array(element: "s", items.map { .string($0) }) }

    /// `a{sv}` from string keys and values.
    public static func vardict(_ entries: [(String, BusValue)]) -> BusValue {
        .dictionary(key: "s", value: "v", entries.map { BusDictEntry(key: .string($0.0), value: .variant($0.1)) })
    }

    // MARK: Reading

    public var stringValue: String? {
        switch self {
        case .string(let v), .objectPath(let v), .signature(let v): v
        case .variant(let inner): inner.stringValue
        default: nil
        }
    }

    public var boolValue: Bool? {
        switch self {
        case .bool(let v): v
        case .variant(let inner): inner.boolValue
        default: nil
        }
    }

    public var doubleValue: Double? {
        switch self {
        case .double(let v): v
        case .variant(let inner): inner.doubleValue
        default: nil
        }
    }

    public var uint32Value: UInt32? {
        switch self {
        case .uint32(let v): v
        case .variant(let inner): inner.uint32Value
        default: nil
        }
    }

    public var int32Value: Int32? {
        switch self {
        case .int32(let v): v
        case .variant(let inner): inner.int32Value
        default: nil
        }
    }

    /// The items of an array (or the values of a variant holding one).
    public var arrayItems: [BusValue]? {
        switch self {
        case .array(_, let items): items
        case .variant(let inner): inner.arrayItems
        default: nil
        }
    }

    public var stringArray: [String]? { arrayItems?.compactMap(\.stringValue) }

    /// The fields of a structure (or of a variant holding one).
    public var structureFields: [BusValue]? {
        switch self {
        case .structure(let fields): fields
        case .variant(let inner): inner.structureFields
        default: nil
        }
    }

    /// The entries of an `a{s…}` dictionary keyed by string, variants unwrapped.
    public var stringDictionary: [String: BusValue]? {
        switch self {
        case .dictionary(_, _, let entries):
            var result: [String: BusValue] = [:]
            for entry in entries {
                guard let key = entry.key.stringValue else { continue }
                if case .variant(let inner) = entry.value { result[key] = inner } else { result[key] = entry.value }
            }
            return result
        case .variant(let inner): return inner.stringDictionary
        default: return nil
        }
    }

    public var structFields: [BusValue]? {
        switch self {
        case .structure(let fields): fields
        case .variant(let inner): inner.structFields
        default: nil
        }
    }
}

/// One entry of a D-Bus dictionary.
public struct BusDictEntry: Hashable, Sendable {
    public var key: BusValue
    public var value: BusValue
    public init(key: BusValue, value: BusValue) {
        self.key = key
        self.value = value
    }
}
