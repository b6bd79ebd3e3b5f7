// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionModel

/// The manager's `Snapshot()`: sessions, streams, devices, routes and applied effects as JSON.
enum Snapshot {
    /// The snapshot with the sessions `visible` admits and their streams (every device).
    static func json(of core: BridgeCore, visible: (Session) -> Bool) -> String {
        let engine = core.engine
        let shown = engine.sessions.values.filter(visible)
        let shownIDs = Set(shown.map(\.id))
        let everySession = shown.count == engine.sessions.count
        let sessions: [JSONValue] = shown.sorted { $0.id < $1.id }.map { session in
            .object([
                ("session", .string(BusService.path(session.id))), ("app", .string(session.appID)),
                ("kind", .string(session.kind.rawValue)), ("policy", .string(session.policy.name)),
                ("category", .string(session.configuration.category.rawValue)),
                ("mode", .string(session.configuration.mode.rawValue)),
                ("options", .array(session.configuration.options.names.map { .string($0) })),
                ("active", .bool(session.isActive)), ("interrupted", .bool(session.isInterrupted)),
                ("activation", .string(session.activationState.rawValue)),
                ("waitingFor", engine.turnBlocker(of: session.id).map { .string(BusService.path($0)) } ?? .null),
                ("interruptedBy", .array(session.interrupters.sorted { "\($0)" < "\($1)" }.map { interrupter in
                    switch interrupter {
                    case .session(let id), .voice(let id): .string(BusService.path(id))
                    case .microphoneMuted(let device): .string("microphone muted (\(device))")
                    }
                })),
                ("route", EventLogRecords.route(engine.currentRoute(of: session.id))),
                ("player", session.nowPlayingPlayer.map { .string($0) } ?? .null),
                ("call", session.call.map { .string($0.description) } ?? .null),
            ])
        }
        let streamInfos = engine.streamInfos.values.filter { stream in
            everySession || engine.session(of: stream.id).map(shownIDs.contains) == true
        }
        let streams: [JSONValue] = streamInfos.sorted { $0.id < $1.id }.map { stream in
            let effects = engine.effectCauses(on: stream.id)
            return .object([
                ("stream", .string(stream.id.description)), ("app", .string(stream.app.name)),
                ("role", stream.role.map { .string($0) } ?? .null),
                ("session", engine.session(of: stream.id).map { .string(BusService.path($0)) } ?? .null),
                ("device", stream.device.map { .string($0.description) } ?? .null),
                ("corked", .bool(stream.corked)), ("mute", .bool(stream.mute)),
                ("volume", .array(stream.volume.values.map { .int($0) })),
                ("effect", .bool(engine.hasEffect(on: stream.id))),
                ("causes", .array(effects.causes.map { .string($0.logName) })),
                ("duckLevel", effects.duckLevel.map { .number($0) } ?? .null),
                ("sounding", engine.isSounding(stream.id).map { .bool($0) } ?? .null),
            ])
        }
        let devices: [JSONValue] = engine.devices.values.sorted { $0.id < $1.id }.map { device in
            .object([
                ("device", .string(device.id.description)), ("name", .string(device.name)),
                ("port", EventLogRecords.port(device.portDescription)),
                ("default", .bool(engine.defaultDeviceName[device.id.direction] == device.name)),
            ])
        }
        return JSONValue.object([
            ("server", .string(engine.serverName)), ("serverVersion", .string(engine.serverVersion)),
            ("connected", .bool(engine.isServerConnected)), ("silentMode", .bool(engine.silentMode)),
            ("screenLocked", .bool(engine.screenLocked)), ("sessions", .array(sessions)),
            ("policies", .array(engine.policySet.policies.map { .string($0.name) })), ("streams", .array(streams)),
            ("devices", .array(devices)),
        ]).serialized
    }
}
