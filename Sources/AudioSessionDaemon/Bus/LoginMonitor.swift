// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import DBusKit

/// Follows logind on the system bus: a session's `LockedHint` (screen lock) and the manager's
/// `PrepareForSleep` (sleep and wake), for the engine's silencing and `wakeFromSleep`.
final class LoginMonitor {
    static let name = "org.freedesktop.login1"
    let connection: BusConnection

    /// Connects to the system bus on `loop`; nil when there is none.
    init?(loop: any BusEventLoop, core: BridgeCore) {
        guard let connection = try? BusConnection(.system) else { return nil }
        self.connection = connection
        connection.attach(to: loop)
        do {
            try connection.addMatch("type='signal',sender='\(Self.name)',interface='\(Self.name).Manager',member='PrepareForSleep'")
            try connection.addMatch("type='signal',sender='\(Self.name)',interface='org.freedesktop.DBus.Properties',"
                + "member='PropertiesChanged',arg0='\(Self.name).Session'")
        } catch {
            return nil
        }
        connection.onMessage = { [weak core] message in
            guard let core, message.kind == .signal else { return false }
            if message.member == "PrepareForSleep", let sleeping = message.arguments.first?.boolValue {
                core.send(sleeping ? .sleep : .wake)
                return true
            }
            if message.member == "PropertiesChanged", message.arguments.count > 1,
                let locked = message.arguments[1].stringDictionary?["LockedHint"]?.boolValue
            {
                core.send(.screenLocked(locked))
                return true
            }
            return false
        }
    }
}
