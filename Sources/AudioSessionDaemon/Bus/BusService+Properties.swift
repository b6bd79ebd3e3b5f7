// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionIPC
import DBusKit

/// The objects' properties on the bus: `PropertiesChanged` for what the engine changed.
extension BusService {
    /// What every session's properties depend on besides the session itself: the devices, the
    /// defaults and how many output streams play. When it changes, every session is looked at again.
    struct SharedInputs: Equatable {
        var devices: [DeviceID: DeviceInfo]
        var defaults: [Direction: String]
        var playingOutputs: Int
    }

    /// Emits PropertiesChanged for what changed since the last time, on every object. Only the sessions
    /// the engine wrote since then are computed again, unless what all of them depend on changed: an
    /// event costs little however many sessions there are. A new session has nothing to announce; its
    /// values are read to compare with later, and with `readingNewSessionsLater` only after the reply
    /// this runs before has left (``readNewSessions()``), in the same turn: the caller waits for the
    /// reply, not for them.
    func emitPropertyChanges(readingNewSessionsLater: Bool = false) {
        let touched = core.takeTouchedSessions()
        let engine = core.engine
        let shared = SharedInputs(devices: engine.devices, defaults: engine.defaultDeviceName,
                                  playingOutputs: engine.playingOutputTotal)
        let candidates = shared == sentShared ? touched : Set(engine.sessions.keys)
        sentShared = shared
        for id in candidates {
            guard let session = engine.sessions[id] else { continue }
            guard let before = sentProperties[id] else {
                if readingNewSessionsLater {
                    unreadSessions.append(id)
                } else {
                    sentProperties[id] = SessionProperties.values(of: session, in: engine)
                }
                continue
            }
            let values = SessionProperties.values(of: session, in: engine)
            sentProperties[id] = values
            objects.emitPropertiesChanged(path: Self.path(id), interface: BusContract.sessionInterface,
                                          changed: SessionProperties.changes(from: before, to: values))
        }
        let manager: [(String, BusValue)] = [
            ("SilentMode", .bool(engine.silentMode)), ("ScreenLocked", .bool(engine.screenLocked)),
            ("ServerName", .string(serverName)),
        ]
        let changed = sentManagerProperties.isEmpty ? [] : manager.filter { sentManagerProperties[$0.0] != $0.1 }
        sentManagerProperties = Dictionary(uniqueKeysWithValues: manager)
        objects.emitPropertiesChanged(path: BusContract.managerPath, interface: BusContract.managerInterface, changed: changed)
    }

    /// Reads the first values of the sessions ``emitPropertyChanges(readingNewSessionsLater:)`` left
    /// for after the reply.
    func readNewSessions() {
        let engine = core.engine
        for id in unreadSessions where sentProperties[id] == nil {
            if let session = engine.sessions[id] { sentProperties[id] = SessionProperties.values(of: session, in: engine) }
        }
        unreadSessions = []
    }
}
