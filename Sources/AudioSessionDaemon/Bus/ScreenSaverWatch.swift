// SPDX-License-Identifier: Apache-2.0
import DBusKit

/// Follows the desktop's screen saver (`org.freedesktop.ScreenSaver`, which GNOME, KDE and others
/// implement): its `ActiveChanged` signal counts only when it comes from the connection that owns the
/// name, so no other client can fake a lock or an unlock.
struct ScreenSaverWatch {
    static let name = "org.freedesktop.ScreenSaver"
    /// Only the name's owner's signals are routed to the bridge (the bus resolves the sender).
    static let matchRule = "type='signal',sender='\(name)',interface='\(name)',member='ActiveChanged'"

    /// The unique name that owns `org.freedesktop.ScreenSaver`, if any.
    private(set) var owner: String?

    /// Asks the bus who owns the name now (the lock may have been taken before the bridge started).
    mutating func start(on connection: BusConnection) {
        let reply = try? connection.call(.methodCall(destination: BusDriver.name, path: BusDriver.path,
                                                     interface: BusDriver.name, member: "GetNameOwner",
                                                     [.string(Self.name)]), timeout: .seconds(5))
        owner = reply?.arguments.first?.stringValue
    }

    /// Follows a new owner; true if the message was about the name.
    mutating func noteOwnerChange(_ change: (name: String, oldOwner: String, newOwner: String)) -> Bool {
        guard change.name == Self.name else { return false }
        owner = change.newOwner.isEmpty ? nil : change.newOwner
        return true
    }

    /// The lock state an `ActiveChanged` from the owner announces; nil for any other message.
    func lockState(_ message: BusMessage) -> Bool? {
        guard message.kind == .signal, message.interface == Self.name, message.member == "ActiveChanged",
            let owner, message.sender == owner
        else { return nil }
        return message.arguments.first?.boolValue
    }
}
