// SPDX-License-Identifier: Apache-2.0
/// Calls to the bus itself (`org.freedesktop.DBus`): credentials and name owners.
public enum BusDriver {
    public static let name = "org.freedesktop.DBus"
    public static let path = "/org/freedesktop/DBus"

    /// The caller's process id (`GetConnectionCredentials`, `ProcessID`).
    public static func processID(of busName: String, on connection: BusConnection) throws(BusError) -> UInt32? {
        let reply = try connection.call(.methodCall(destination: name, path: path, interface: name,
                                                    member: "GetConnectionCredentials", [.string(busName)]),
                                        timeout: .seconds(5))
        return reply.arguments.first?.stringDictionary?["ProcessID"]?.uint32Value
    }

    /// The caller's process id, asynchronously (`GetConnectionCredentials`, `ProcessID`).
    public static func processID(of busName: String, on connection: BusConnection,
                                 _ completion: @escaping (UInt32?) -> Void) {
        connection.call(.methodCall(destination: name, path: path, interface: name,
                                    member: "GetConnectionCredentials", [.string(busName)]),
                        timeout: .seconds(5)) { result in
            completion((try? result.get())?.arguments.first?.stringDictionary?["ProcessID"]?.uint32Value)
        }
    }

    /// The match rule for `NameOwnerChanged`, to notice connections going away.
    public static let nameOwnerChangedRule =
        "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged'"

    /// A `NameOwnerChanged` signal's (name, old owner, new owner), if the message is one.
    public static func nameOwnerChange(_ message: BusMessage) -> (name: String, oldOwner: String, newOwner: String)? {
        guard message.kind == .signal, message.interface == name, message.member == "NameOwnerChanged" else { return nil }
        let arguments = message.arguments.compactMap(\.stringValue)
        guard arguments.count == 3 else { return nil }
        return (arguments[0], arguments[1], arguments[2])
    }
}
