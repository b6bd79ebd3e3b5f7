// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionModel
import FoundationEssentials
import Glibc

/// One record of the event log: an event name and its fields, in order.
public struct LogRecord: Sendable {
    public var timestamp: Date
    public var event: String
    public var fields: [(String, JSONValue)]

    public init(timestamp: Date, event: String, fields: [(String, JSONValue)]) {
        self.timestamp = timestamp
        self.event = event
        self.fields = fields
    }

    /// The record as one JSON object (`ts`, `event`, then the fields).
    public var json: String {
        JSONValue.object([("ts", .string(LogRecord.rfc3339(timestamp))), ("event", .string(event))] + fields).serialized
    }

    /// The record as one line of text for people.
    public var text: String {
        ([LogRecord.rfc3339(timestamp), event] + fields.map { "\($0.0)=\($0.1.plain)" }).joined(separator: " ")
    }

    /// RFC 3339 in UTC with milliseconds (`gmtime_r`: a date formatter costs more than the rest of a record).
    public static func rfc3339(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        var seconds = time_t(milliseconds.quotientAndRemainder(dividingBy: 1000).quotient)
        let fraction = Int(milliseconds - Int64(seconds) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(millis)Z"
    }
}

/// Turns the engine's actions into the records of INTERFACES.md's event log.
public enum EventLogRecords {
    static func session(_ id: SessionID) -> JSONValue { .string(id.description) }

    static func port(_ port: PortDescription) -> JSONValue {
        .object([("portType", .string(port.portType.rawValue)), ("portName", .string(port.portName)),
                 ("uid", .string(port.uid)), ("channels", .array(port.channels.map { .string($0) }))])
    }

    static func route(_ route: RouteDescription) -> JSONValue {
        .object([("inputs", .array(route.inputs.map(port))), ("outputs", .array(route.outputs.map(port)))])
    }

    /// The record an action stands for, if it is one the log keeps. `app` names a session's app.
    public static func record(for action: PolicyAction, app: (SessionID) -> String, at time: Date) -> LogRecord? {
        func make(_ event: String, _ fields: [(String, JSONValue)]) -> LogRecord {
            LogRecord(timestamp: time, event: event, fields: fields)
        }
        switch action {
        case .record(let record): return self.record(record, at: time)
        case .interruption(let id, let type, let reason, let options, let interrupter, let interrupterSession, let takenBack):
            var fields: [(String, JSONValue)] = [
                ("session", session(id)), ("app", .string(app(id))), ("type", .string(type.rawValue)),
                ("reason", .string(reason.rawValue)), ("interrupter", interrupter.map { .string($0) } ?? .null),
            ]
            if let interrupterSession { fields.append(("interrupterSession", session(interrupterSession))) }
            if type == .ended { fields.append(("shouldResume", .bool(options.contains(.shouldResume)))) }
            if let takenBack { fields.append(("takenBack", .string(takenBack))) }
            return make("interruption", fields)
        case .routeChange(let id, let reason, let previous, let current):
            return make("route.change", [("session", session(id)), ("app", .string(app(id))),
                                         ("reason", .string(reason.rawValue)), ("previousRoute", route(previous)),
                                         ("currentRoute", route(current))])
        case .secondaryAudioHint(let id, let type):
            return make("hint.secondary", [("session", session(id)), ("app", .string(app(id))), ("type", .string(type.rawValue))])
        case .pausePlayer(let id, let why):
            return make("action", [("action", .string("pause")), ("session", session(id)), ("why", .string(why))])
        case .playPlayer(let id, let why):
            return make("action", [("action", .string("play")), ("session", session(id)), ("why", .string(why))])
        case .combineOutputs(let name, let outputs, let why):
            return make("action", [("action", .string("combine")), ("device", .string(name)),
                                   ("outputs", .array(outputs.map { .string($0) })), ("why", .string(why))])
        case .removeCombinedOutput(let name, let why):
            return make("action", [("action", .string("uncombine")), ("device", .string(name)), ("why", .string(why))])
        case .setDeviceVolume(let device, let volume, let why):
            return make("action", [("action", .string("gain")), ("device", .string(device.description)),
                                   ("volume", .string(volume.description)), ("why", .string(why))])
        case .setCardProfile(let card, let profile, let why):
            return make("action", [("action", .string("profile")), ("device", .string("card/\(card)")),
                                   ("profile", .string(profile)), ("why", .string(why))])
        default: return nil
        }
    }

    static func record(_ record: EventRecord, at time: Date) -> LogRecord {
        func make(_ event: String, _ fields: [(String, JSONValue)]) -> LogRecord {
            LogRecord(timestamp: time, event: event, fields: fields)
        }
        switch record {
        case .sessionCreated(let id, let app, let kind, let policy, let why):
            return make("session.created", [("session", session(id)), ("app", .string(app)), ("kind", .string(kind.rawValue)),
                                            ("policy", .string(policy))] + (why.map { [("why", .string($0))] } ?? []))
        case .sessionReleased(let id, let app, let kind, let policy):
            return make("session.released", [("session", session(id)), ("app", .string(app)),
                                             ("kind", .string(kind.rawValue)), ("policy", .string(policy))])
        case .sessionCategory(let id, let app, let configuration):
            return make("session.category", [("session", session(id)), ("app", .string(app)),
                                             ("category", .string(configuration.category.rawValue)),
                                             ("mode", .string(configuration.mode.rawValue)),
                                             ("options", .array(configuration.options.names.map { .string($0) }))])
        case .sessionActive(let id, let app, let active, let error):
            return make("session.active", [("session", session(id)), ("app", .string(app)), ("active", .bool(active)),
                                           ("ok", .bool(error == nil)),
                                           ("error", error.map { .string($0.code.rawValue) } ?? .null)])
        case .turn(let id, let app, let change, let blocker):
            return make("activation.\(change.rawValue)", [("session", session(id)), ("app", .string(app)),
                                                          ("blocker", blocker.map(session) ?? .null)])
        case .streamAdded(let stream, let app, let role, let id):
            return make("stream.added", [("stream", .string(stream.description)), ("app", .string(app)),
                                         ("role", role.map { .string($0) } ?? .null), ("session", id.map(session) ?? .null)])
        case .streamRemoved(let stream, let app, let role, let id):
            return make("stream.removed", [("stream", .string(stream.description)), ("app", .string(app)),
                                           ("role", role.map { .string($0) } ?? .null), ("session", id.map(session) ?? .null)])
        case .deviceAdded(let device, let port), .deviceRemoved(let device, let port), .deviceChanged(let device, let port):
            let event = switch record {
            case .deviceAdded: "device.added"
            case .deviceRemoved: "device.removed"
            default: "device.changed"
            }
            return make(event, [("device", .string(device.description)), ("port", .string(port.uid)),
                                ("portType", .string(port.portType.rawValue))])
        case .deviceMute(let device, let port, let muted):
            return make("device.mute", [("device", .string(device.description)), ("port", .string(port.uid)),
                                        ("muted", .bool(muted))])
        case .effect(let name, let stream, let id, let why, let causes, let level):
            var fields: [(String, JSONValue)] = [("action", .string(name)), ("stream", .string(stream.description)),
                                                 ("session", id.map(session) ?? .null), ("why", .string(why)),
                                                 ("causes", .array(causes.map { .string($0.logName) }))]
            if let level { fields.append(("level", .number(level))) }
            return make("action", fields)
        case .serverLost(let server): return make("server.lost", [("server", .string(server))])
        case .serverReset(let server): return make("server.reset", [("server", .string(server))])
        case .serverPolicy(let name, let inForce, let devices):
            return make("server.policy", [("policy", .string(name)), ("inForce", .bool(inForce)),
                                          ("devices", .array(devices.map { .string($0) })),
                                          ("note", .string(inForce ? "the server ducks and corks the streams on these devices; the bridge does not duck them again" : "the bridge ducks every stream again"))])
        case .defaultDevices(let output, let input):
            return make("server.default", [("output", output.map { .string($0) } ?? .null),
                                           ("input", input.map { .string($0) } ?? .null)])
        case .permission(let app, let permission, let source):
            return make("permission", [("app", .string(app)), ("permission", .string(permission.rawValue)),
                                       ("source", .string(source))])
        case .call(let id, let app, let inCall, let why):
            return make("session.call", [("session", session(id)), ("app", .string(app)), ("inCall", .bool(inCall)),
                                         ("why", .string(why))])
        case .streamSound(let stream, let app, let sounding):
            return make("stream.sound", [("stream", .string(stream.description)), ("app", .string(app)),
                                         ("sounding", .bool(sounding))])
        case .commandFailed(let action, let subject, let error):
            return make("action.error", [("action", .string(action)), ("subject", .string(subject)),
                                          ("error", .string(error))])
        }
    }
}
