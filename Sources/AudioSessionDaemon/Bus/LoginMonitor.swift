// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import DBusKit
import FoundationEssentials
import Glibc

/// Follows logind on the system bus: the `LockedHint` (screen lock) of the bridge's own login session,
/// read at start and on change, and the manager's `PrepareForSleep` (sleep and wake), for the engine's
/// silencing and `wakeFromSleep`. The own session is `$XDG_SESSION_ID`'s, else the user's display
/// session (`User.Display`); another session's lock (another user's, or another seat's) is not the
/// bridge's business.
final class LoginMonitor {
    static let name = "org.freedesktop.login1"
    static let managerPath = "/org/freedesktop/login1"
    let connection: BusConnection
    /// The object path of the bridge's own login session, if logind knows one.
    let sessionPath: String?

    /// Connects to the system bus on `loop`; nil when there is none.
    init?(loop: any BusEventLoop, core: BridgeCore, sessionID: String? = ProcessInfo.processInfo.environment["XDG_SESSION_ID"]) {
        guard let connection = try? BusConnection(.system) else { return nil }
        self.connection = connection
        sessionPath = Self.ownSession(on: connection, sessionID: sessionID)
        connection.attach(to: loop)
        do {
            try connection.addMatch("type='signal',sender='\(Self.name)',interface='\(Self.name).Manager',member='PrepareForSleep'")
            if let sessionPath {
                try connection.addMatch("type='signal',sender='\(Self.name)',path='\(sessionPath)',"
                    + "interface='\(ObjectServer.propertiesInterface)',member='PropertiesChanged',arg0='\(Self.name).Session'")
            }
        } catch {
            return nil
        }
        if let sessionPath, Self.property(sessionPath, "\(Self.name).Session", "LockedHint", on: connection)?.boolValue == true {
            core.send(.screenLocked(true))
        }
        connection.onMessage = { [weak core, sessionPath] message in
            guard let core, message.kind == .signal else { return false }
            if message.member == "PrepareForSleep", let sleeping = message.arguments.first?.boolValue {
                core.send(sleeping ? .sleep : .wake)
                return true
            }
            if message.member == "PropertiesChanged", message.path == sessionPath, message.arguments.count > 1,
                let locked = message.arguments[1].stringDictionary?["LockedHint"]?.boolValue
            {
                core.send(.screenLocked(locked))
                return true
            }
            return false
        }
    }

    /// `GetSession(XDG_SESSION_ID)`, else the user's `Display` session; nil when logind has neither.
    static func ownSession(on connection: BusConnection, sessionID: String?) -> String? {
        if let sessionID, !sessionID.isEmpty,
            let path = call(managerPath, "\(name).Manager", "GetSession", [.string(sessionID)], on: connection)?.first?.stringValue
        {
            return path
        }
        guard let user = call(managerPath, "\(name).Manager", "GetUser", [.uint32(getuid())], on: connection)?.first?.stringValue,
            let display = property(user, "\(name).User", "Display", on: connection)?.structFields,
            display.count == 2, display[0].stringValue?.isEmpty == false
        else { return nil }
        return display[1].stringValue
    }

    private static func call(_ path: String, _ interface: String, _ member: String, _ arguments: [BusValue],
                             on connection: BusConnection) -> [BusValue]? {
        try? connection.call(.methodCall(destination: name, path: path, interface: interface, member: member, arguments),
                             timeout: .seconds(5)).arguments
    }

    /// A property's value, in its variant (BusValue's readers see through it).
    private static func property(_ path: String, _ interface: String, _ property: String, on connection: BusConnection) -> BusValue? {
        call(path, ObjectServer.propertiesInterface, "Get", [.string(interface), .string(property)], on: connection)?.first
    }
}
