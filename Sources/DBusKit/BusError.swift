// SPDX-License-Identifier: Apache-2.0
import CDBus

/// A D-Bus error: its name (`org.freedesktop.DBus.Error.InvalidArgs`, `io.github.audiosession.Error.BadParam`, …)
/// and its message.
public struct BusError: Error, Hashable, Sendable, CustomStringConvertible {
    public var name: String
    public var message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public static func invalidArgs(_ message: String) -> BusError {
        BusError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
    }
    public static func unknownMethod(_ message: String) -> BusError {
        BusError(name: "org.freedesktop.DBus.Error.UnknownMethod", message: message)
    }
    public static func unknownObject(_ message: String) -> BusError {
        BusError(name: "org.freedesktop.DBus.Error.UnknownObject", message: message)
    }
    public static func unknownProperty(_ message: String) -> BusError {
        BusError(name: "org.freedesktop.DBus.Error.UnknownProperty", message: message)
    }
    public static func propertyReadOnly(_ message: String) -> BusError {
        BusError(name: "org.freedesktop.DBus.Error.PropertyReadOnly", message: message)
    }
    public static func failed(_ message: String) -> BusError {
        BusError(name: "org.freedesktop.DBus.Error.Failed", message: message)
    }

    public var description: String { "\(name): \(message)" }

    /// The choke point: takes a filled C `DBusError`, frees it, and returns it as a ``BusError``.
    static func take(_ error: inout DBusError) -> BusError? {
        guard dbus_error_is_set(&error) != 0 else { return nil }
        defer { dbus_error_free(&error) }
        return BusError(name: error.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed",
                        message: error.message.map { String(cString: $0) } ?? "")
    }

    /// Runs a libdbus call that reports failure through a `DBusError`, and throws it.
    static func check<T>(_ body: (UnsafeMutablePointer<DBusError>) -> T) throws(BusError) -> T {
        var error = DBusError()
        dbus_error_init(&error)
        let result = body(&error)
        if let failure = take(&error) { throw failure }
        return result
    }
}
