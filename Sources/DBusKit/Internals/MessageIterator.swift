// SPDX-License-Identifier: Apache-2.0
import CDBus

/// Reading and writing ``BusValue``s through `DBusMessageIter`, each C call in one place.
enum MessageIterator {
    /// Reads every value from the iterator's position to the end (`dbus_message_iter_get_arg_type`,
    /// `dbus_message_iter_get_basic`, `dbus_message_iter_recurse`, `dbus_message_iter_next`).
    static func readAll(_ iter: inout DBusMessageIter) -> [BusValue] {
        var values: [BusValue] = []
        while dbus_message_iter_get_arg_type(&iter) != cdbus_type_invalid() {
            if let value = read(&iter) { values.append(value) }
            dbus_message_iter_next(&iter)
        }
        return values
    }

    static func read(_ iter: inout DBusMessageIter) -> BusValue? {
        let type = dbus_message_iter_get_arg_type(&iter)
        func basic<T: BitwiseCopyable>(_ zero: T) -> T {
            var value = zero
            dbus_message_iter_get_basic(&iter, &value)
            return value
        }
        switch type {
        case cdbus_type_byte(): return .byte(basic(UInt8(0)))
        case cdbus_type_boolean(): return .bool(basic(dbus_bool_t(0)) != 0)
        case cdbus_type_int32(): return .int32(basic(Int32(0)))
        case cdbus_type_uint32(): return .uint32(basic(UInt32(0)))
        case cdbus_type_int64(): return .int64(basic(Int64(0)))
        case cdbus_type_uint64(): return .uint64(basic(UInt64(0)))
        case cdbus_type_double(): return .double(basic(Double(0)))
        case cdbus_type_string(), cdbus_type_object_path(), cdbus_type_signature():
            let pointer = basic(UnsafePointer<CChar>?.none)
            let text = pointer.map { String(cString: $0) } ?? ""
            if type == cdbus_type_string() { return .string(text) }
            return type == cdbus_type_object_path() ? .objectPath(text) : .signature(text)
        case cdbus_type_variant():
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &inner)
            return read(&inner).map { .variant($0) }
        case cdbus_type_struct():
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &inner)
            return .structure(readAll(&inner))
        case cdbus_type_array():
            let signature = currentSignature(&iter)
            let element = String(signature.dropFirst())
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &inner)
            if element.hasPrefix("{") {
                var entries: [BusDictEntry] = []
                while dbus_message_iter_get_arg_type(&inner) == cdbus_type_dict_entry() {
                    var pair = DBusMessageIter()
                    dbus_message_iter_recurse(&inner, &pair)
                    let items = readAll(&pair)
                    if items.count == 2 { entries.append(BusDictEntry(key: items[0], value: items[1])) }
                    dbus_message_iter_next(&inner)
                }
                let (key, value) = splitDictSignature(element)
                return .dictionary(key: key, value: value, entries)
            }
            return .array(element: element, readAll(&inner))
        default:
            return nil
        }
    }

    /// `dbus_message_iter_get_signature`, freed.
    static func currentSignature(_ iter: inout DBusMessageIter) -> String {
        guard let raw = dbus_message_iter_get_signature(&iter) else { return "" }
        defer { dbus_free(raw) }
        return String(cString: raw)
    }

    /// `{sv}` → ("s", "v").
    static func splitDictSignature(_ element: String) -> (String, String) {
        let body = element.dropFirst().dropLast()
        guard let first = body.first else { return ("", "") }
        return (String(first), String(body.dropFirst()))
    }

    /// Appends values (`dbus_message_iter_append_basic`, `dbus_message_iter_open_container`,
    /// `dbus_message_iter_close_container`).
    @discardableResult
    static func append(_ value: BusValue, to iter: inout DBusMessageIter) -> Bool {
        func basic<T: BitwiseCopyable>(_ type: Int32, _ value: T) -> Bool {
            var copy = value
            return dbus_message_iter_append_basic(&iter, type, &copy) != 0
        }
        func text(_ type: Int32, _ string: String) -> Bool {
            string.withCString { pointer in
                var p: UnsafePointer<CChar>? = pointer
                return dbus_message_iter_append_basic(&iter, type, &p) != 0
            }
        }
        func container(_ type: Int32, _ signature: String?, _ fill: (inout DBusMessageIter) -> Bool) -> Bool {
            var inner = DBusMessageIter()
            let opened: Bool
            if let signature {
                opened = signature.withCString { dbus_message_iter_open_container(&iter, type, $0, &inner) != 0 }
            } else {
                opened = dbus_message_iter_open_container(&iter, type, nil, &inner) != 0
            }
            guard opened else { return false }
            let filled = fill(&inner)
            guard dbus_message_iter_close_container(&iter, &inner) != 0 else { return false }
            return filled
        }
        switch value {
        case .byte(let v): return basic(cdbus_type_byte(), v)
        case .bool(let v): return basic(cdbus_type_boolean(), dbus_bool_t(v ? 1 : 0))
        case .int32(let v): return basic(cdbus_type_int32(), v)
        case .uint32(let v): return basic(cdbus_type_uint32(), v)
        case .int64(let v): return basic(cdbus_type_int64(), v)
        case .uint64(let v): return basic(cdbus_type_uint64(), v)
        case .double(let v): return basic(cdbus_type_double(), v)
        case .string(let v): return text(cdbus_type_string(), v)
        case .objectPath(let v): return text(cdbus_type_object_path(), v)
        case .signature(let v): return text(cdbus_type_signature(), v)
        case .variant(let inner):
            return container(cdbus_type_variant(), inner.signature) { append(inner, to: &$0) }
        case .structure(let fields):
            return container(cdbus_type_struct(), nil) { inner in fields.allSatisfy { append($0, to: &inner) } }
        case .array(let element, let items):
            return container(cdbus_type_array(), element) { inner in items.allSatisfy { append($0, to: &inner) } }
        case .dictionary(let key, let valueSignature, let entries):
            return container(cdbus_type_array(), "{" + key + valueSignature + "}") { inner in
                entries.allSatisfy { entry in
                    var pair = DBusMessageIter()
                    guard dbus_message_iter_open_container(&inner, cdbus_type_dict_entry(), nil, &pair) != 0 else {
                        return false
                    }
                    let ok = append(entry.key, to: &pair) && append(entry.value, to: &pair)
                    return dbus_message_iter_close_container(&inner, &pair) != 0 && ok
                }
            }
        }
    }
}
