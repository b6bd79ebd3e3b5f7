// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionIPC
import AudioSessionModel
import DBusKit
import FoundationEssentials

/// What each caller may see. A caller outside a sandbox sees every session and may follow the event
/// log; a caller in a Flatpak sandbox sees only its own app's sessions (in `ListSessions`, `Snapshot`,
/// and at the session objects, whose properties and introspection are `AccessDenied` to it), and may
/// not follow the event log, which tells of every app.
extension BusService {
    /// Which sessions are shown to the caller `sender` (its identity looked up once, not per session).
    func sessionsShown(to sender: String) -> (Session) -> Bool {
        let caller = callers.identity(of: sender)
        return { caller.maySee(app: $0.appID) }
    }

    /// `AccessDenied` for a sandboxed caller at another app's session object.
    func accessError(at path: String, for sender: String) -> BusError? {
        guard let number = BusContract.sessionNumber(path), let session = core.engine.sessions[SessionID(number)],
            !callers.identity(of: sender).maySee(app: session.appID)
        else { return nil }
        return AudioSessionError(.accessDenied, "\(path) belongs to another app; a sandboxed app sees only its own sessions")
            .busError
    }

    /// `AccessDenied` for a sandboxed caller asking for what only the user decides or may see
    /// (`reason`), nil for an unsandboxed one.
    func refusalToSandbox(_ sender: String, _ reason: String) -> BusError? {
        callers.identity(of: sender).sandboxAppID.map {
            AudioSessionError(.accessDenied, "\(reason); \($0) runs in a sandbox").busError
        }
    }

    /// The manager's `WatchEvents()`: the caller receives every event-log record as a unicast `Event`
    /// signal until its connection closes.
    func eventLogMethods() -> [String: ExportedMethod] {
        [
            "WatchEvents": method("") { [unowned self] call in
                if let refused = refusalToSandbox(call.sender, "the event log tells of every app") { return .error(refused) }
                // A connection already gone is not kept: its departure has been announced.
                guard callers.identity(of: call.sender).processID != nil else { return Self.fail(.accessDenied, "the caller's connection is gone") }
                eventWatchers.insert(call.sender)
                return .reply([])
            },
            "EventHistory": method("tt") { [unowned self] call in
                if let refused = refusalToSandbox(call.sender, "the event log tells of every app") { return .error(refused) }
                func time(_ value: BusValue) -> Date? {
                    guard case .uint64(let milliseconds) = value, milliseconds > 0 else { return nil }
                    return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
                }
                let records = eventHistory.records(since: time(call.arguments[0]), until: time(call.arguments[1]))
                return .reply([.array(element: "s", records.map { .string($0) })])
            },
        ]
    }

    /// Keeps one event-log record for `EventHistory`, and sends the manager's `Event` signal for it to
    /// each connection that watches.
    public func emitEvent(json: String, at time: Date) {
        eventHistory.append(json, at: time)
        for watcher in eventWatchers {
            objects.emitSignal(path: BusContract.managerPath, interface: BusContract.managerInterface, member: "Event",
                               [.string(json)], destination: watcher)
        }
    }
}
