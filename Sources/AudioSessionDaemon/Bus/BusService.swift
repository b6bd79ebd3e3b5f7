// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionIPC
import AudioSessionModel
import DBusKit
import PulseAudioClient

/// The bridge on the bus: it owns `io.github.audiosession.Bridge1`, serves the manager and session
/// objects, turns method calls into engine events, and the engine's replies and signals into
/// messages. It runs on the loop thread.
public final class BusService {
    let core: BridgeCore
    let connection: BusConnection
    let objects: ObjectServer
    private var pending: [RequestID: BusMessage] = [:]
    private var nextRequest: UInt64 = 1
    /// Each session's properties as last announced, in the order of `SessionProperty.allCases`.
    var sentProperties: [SessionID: [BusValue]] = [:]
    /// Sessions new in the step being replied to, whose first values are read once the reply has left.
    var unreadSessions: [SessionID] = []
    /// Who each caller is (its process and sandbox), looked up before its calls are served.
    lazy var callers = CallerIdentities(connection: connection)
    /// The connections that asked for the event log (`WatchEvents`).
    var eventWatchers: Set<String> = []
    /// The recent event-log records, for `EventHistory`.
    var eventHistory = EventHistory()
    /// The manager's properties as last announced.
    var sentManagerProperties: [String: BusValue] = [:]
    /// What every session's properties depended on when they were last announced.
    var sentShared: SharedInputs?
    private var screenSaver = ScreenSaverWatch()
    private lazy var players = MPRISController(connection: connection)
    /// The questions to the user about recording (record permission).
    lazy var permissionQuestions = PermissionQuestions(connection: connection, loop: core.loop) { [unowned self] app, answer in
        core.send(.recordPermissionAnswered(app: app, answer))
    }
    private lazy var propertyTimer = PulseTimer(loop: core.loop) { [unowned self] in self.emitPropertyChanges() }
    /// Calls wait until the bridge has read the server once (see ``FirstReadingGate``).
    lazy var firstReading = FirstReadingGate(loop: core.loop)

    /// Connects the service to `connection` (already attached to the core's loop).
    public init(core: BridgeCore, connection: BusConnection) {
        self.core = core
        self.connection = connection
        objects = ObjectServer(connection: connection)
    }

    /// Takes the well-known name and starts serving; throws when the name is taken.
    public func start() throws(BusError) {
        try connection.addMatch(BusDriver.nameOwnerChangedRule)
        try connection.addMatch(ScreenSaverWatch.matchRule)
        screenSaver.start(on: connection)
        try connection.addMatch(PermissionQuestions.matchRule)
        try connection.addMatch(MPRISController.matchRule)
        objects.onOtherMessage = { [unowned self] message in self.otherMessage(message) }
        objects.admit = { [unowned self] sender, proceed in
            callers.whenKnown(sender) { [unowned self] in firstReading.whenOpen(proceed) }
        }
        objects.accessError = { [unowned self] path, sender in accessError(at: path, for: sender) }
        objects.export(path: BusContract.managerPath, interfaces: [managerInterface()])
        for id in core.engine.sessions.keys.sorted() { exportSession(id) }
        core.observeActions { [unowned self] action in self.perform(action) }
        // Property changes are gathered and sent shortly after: once the server commands of the step
        // have left, and once for a burst of events (or at once, before a reply or signal).
        core.observeSettled { [unowned self] _ in propertyTimer.armIfIdle(after: BridgeCore.bookkeepingDelay) }
        guard try connection.requestName(BusContract.busName) else {
            throw BusError(name: "org.freedesktop.DBus.Error.AddressInUse",
                           message: "\(BusContract.busName) is already owned; is another audiosessiond running?")
        }
        emitPropertyChanges()
    }

    private func otherMessage(_ message: BusMessage) -> Bool {
        if permissionQuestions.handle(message) { return true }
        if let change = BusDriver.nameOwnerChange(message) {
            if screenSaver.noteOwnerChange(change) { return true }
            if change.name.hasPrefix(":"), change.newOwner.isEmpty {
                callers.forget(change.name)
                eventWatchers.remove(change.name)
                core.send(.ownerVanished(busName: change.name))
                return true
            }
        }
        if let locked = screenSaver.lockState(message) {
            core.send(.screenLocked(locked))
            return true
        }
        if let (session, change) = players.change(message) {
            core.send(.playerChanged(session, change))
            return true
        }
        return false
    }

    // MARK: Requests

    func request(_ message: BusMessage) -> RequestID {
        let id = RequestID(nextRequest)
        nextRequest += 1
        pending[id] = message
        return id
    }

    static func fail(_ code: ErrorCode, _ message: String) -> MethodResult {
        .error(AudioSessionError(code, message).busError)
    }

    /// The reason a string or array argument is too large, if it is.
    private static func oversized(_ arguments: [BusValue]) -> String? {
        for argument in arguments {
            switch argument {
            case .string(let text) where text.utf8.count > BusContract.Limits.stringBytes:
                return "a string argument is longer than \(BusContract.Limits.stringBytes) bytes"
            case .array(_, let items) where items.count > BusContract.Limits.arrayEntries:
                return "an array argument has more than \(BusContract.Limits.arrayEntries) entries"
            case .dictionary(_, _, let entries) where entries.count > BusContract.Limits.arrayEntries:
                return "a dictionary argument has more than \(BusContract.Limits.arrayEntries) entries"
            case .array(_, let items):
                if let reason = oversized(items) { return reason }
            default: continue
            }
        }
        return nil
    }

    /// Wraps a handler with the size limits.
    func method(_ signature: String, _ handler: @escaping (MethodCall) -> MethodResult) -> ExportedMethod {
        ExportedMethod(signature) { call in
            if let reason = Self.oversized(call.arguments) { return Self.fail(.badParam, reason) }
            return handler(call)
        }
    }

    // MARK: The manager

    private func managerInterface() -> ExportedInterface {
        ExportedInterface(
            name: BusContract.managerInterface,
            methods: [
                "CreateSession": method("sa{sv}") { [unowned self] in self.createSession($0) },
                "ListSessions": method("") { [unowned self] call in
                    let sessions = core.engine.sessions.values.filter(sessionsShown(to: call.sender))
                    return .reply([.array(element: "o", sessions.map(\.id).sorted().map { .objectPath(Self.path($0)) })])
                },
                "Snapshot": method("") { [unowned self] call in
                    .reply([.string(Snapshot.json(of: core, visible: sessionsShown(to: call.sender)))])
                },
            ].merging(permissionManagerMethods()) { $1 }.merging(eventLogMethods()) { $1 },
            properties: [
                "SilentMode": ExportedProperty("b", get: { [unowned self] in .bool(core.engine.silentMode) },
                                               set: { [unowned self] value, sender in
                                                   if let refused = refusalToSandbox(sender, "the silent switch is the user's") {
                                                       return refused
                                                   }
                                                   core.send(.silentMode(value.boolValue ?? false))
                                                   return nil
                                               }),
                "ScreenLocked": ExportedProperty("b", get: { [unowned self] in .bool(core.engine.screenLocked) }),
                "ServerName": ExportedProperty("s", get: { [unowned self] in .string(serverName) }),
                "Version": ExportedProperty("s", get: { .string(BridgeCore.version) }),
            ],
            introspectionXML: Introspection.manager)
    }

    var serverName: String {
        core.engine.serverName.isEmpty ? "" : "\(core.engine.serverName) \(core.engine.serverVersion)"
    }

    private func createSession(_ call: MethodCall) -> MethodResult {
        guard let appID = call.arguments[0].stringValue, !appID.isEmpty else {
            return Self.fail(.badParam, "app_id must not be empty")
        }
        let hints = call.arguments[1].stringDictionary ?? [:]
        if let unknown = hints.keys.first(where: { $0 != "policy" && $0 != "pid" }) {
            return Self.fail(.badParam, "unknown hint '\(unknown)'; expected policy (s) or pid (u)")
        }
        if core.engine.sessions(ownedBy: call.sender).count >= BusContract.Limits.sessionsPerConnection {
            return Self.fail(.resourceNotAvailable,
                             "a connection may hold \(BusContract.Limits.sessionsPerConnection) sessions; release one first")
        }
        var hintedPID: Int32?
        if let hint = hints["pid"] {
            guard let pid = hint.uint32Value.map({ Int32(bitPattern: $0) }) else {
                return Self.fail(.badParam, "the pid hint must be a u (uint32)")
            }
            hintedPID = pid
        }
        var policyName: String?
        if let hint = hints["policy"] {
            guard let name = hint.stringValue else { return Self.fail(.badParam, "the policy hint must be an s (string)") }
            policyName = name
        }
        // The caller's process and sandbox come from the bus and the system, never from the caller's word.
        let caller = callers.identity(of: call.sender)
        // The bus knows the process of every connected caller: without one the caller is gone (it sent
        // the call and disconnected), and a session made now would have no owner to end it.
        guard let callerPID = caller.processID else { return Self.fail(.accessDenied, "the caller's connection is gone") }
        // A sandboxed app is the app its sandbox says it is, whatever it declares.
        if let sandboxed = caller.sandboxAppID, sandboxed != appID {
            return Self.fail(.accessDenied,
                             "the caller runs in the Flatpak sandbox of \(sandboxed); its sessions are \(sandboxed)'s, not '\(appID)'")
        }
        if let hintedPID {
            guard ProcessAncestry.chain(of: hintedPID).dropFirst().contains(callerPID) else {
                return Self.fail(.accessDenied, "process \(hintedPID) is not a descendant of the caller")
            }
        }
        let ownerPID = hintedPID ?? callerPID
        let ownerBinary = hintedPID == nil ? caller.executableName : ProcessAncestry.executableName(of: ownerPID)
        return forward(call) { .createSession($0, SessionRequest(
            owner: call.sender, ownerPID: ownerPID, appID: appID, token: Self.newToken(),
            policyName: policyName, ownerBinary: ownerBinary)) }
    }

    /// 128 random bits, as 32 hex digits.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bits = (generator.next() as UInt64, generator.next() as UInt64)
        return String(unsafeUninitializedCapacity: 32) { digits in
            for (offset, word) in [bits.0, bits.1].enumerated() {
                for position in 0..<16 {
                    let nibble = UInt8(truncatingIfNeeded: word >> UInt64(60 - 4 * position)) & 0xF
                    digits[offset * 16 + position] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
                }
            }
            return 32
        }
    }

    // MARK: Sessions

    static func path(_ id: SessionID) -> String { BusContract.sessionPath(id.rawValue) }

    private func exportSession(_ id: SessionID) {
        objects.export(path: Self.path(id), interfaces: [sharedSessionInterface])
    }

    /// The session interface, one for every session object: each call and property read finds its
    /// session by the object path (a thousand sessions do not need a thousand sets of handlers).
    private lazy var sharedSessionInterface = sessionInterface()

    /// The session an object path names.
    private static func session(at path: String) -> SessionID? { BusContract.sessionNumber(path).map { SessionID($0) } }

    /// Checks existence and ownership of the session the call was made at before anything else, then
    /// runs `body`.
    func owned(_ call: MethodCall, _ body: (SessionID, Session) -> MethodResult) -> MethodResult {
        guard let id = Self.session(at: call.path), let session = core.engine.sessions[id] else {
            return Self.fail(.expiredSession, "\(call.path) no longer exists")
        }
        guard session.kind == .explicit, session.owner == call.sender else {
            return Self.fail(.accessDenied, "\(call.path) belongs to another connection; only its owner may change it")
        }
        return body(id, session)
    }

    func forward(_ call: MethodCall, _ event: (RequestID) -> PolicyEvent) -> MethodResult {
        core.send(event(request(call.message)))
        return .later
    }

    private func sessionInterface() -> ExportedInterface {
        func configure(_ call: MethodCall, _ make: (Session) throws(AudioSessionError) -> SessionConfiguration)
            -> MethodResult
        {
            owned(call) { id, session in
                do {
                    let configuration = try make(session)
                    return forward(call) { .setConfiguration($0, id, caller: call.sender, configuration) }
                } catch {
                    return .error((error as? AudioSessionError)?.busError ?? .failed("\(error)"))
                }
            }
        }
        /// A call that takes `SetActive`'s options at `index`: forwarded as `make` says, or `BadParam`.
        func withActiveOptions(_ call: MethodCall, at index: Int,
                               _ make: @escaping (RequestID, SessionID, SetActiveOptions) -> PolicyEvent) -> MethodResult {
            owned(call) { id, _ in
                do {
                    let options = try SetActiveOptions.parse(call.arguments[index].stringArray ?? [])
                    return forward(call) { make($0, id, options) }
                } catch {
                    return .error((error as? AudioSessionError)?.busError ?? .failed("\(error)"))
                }
            }
        }
        let methods: [String: ExportedMethod] = [
            "SetCategory": method("ssas") { call in
                configure(call) { _ throws(AudioSessionError) in
                    try SessionConfiguration(category: call.arguments[0].stringValue ?? "",
                                             mode: call.arguments[1].stringValue ?? "",
                                             options: call.arguments[2].stringArray ?? [])
                }
            },
            "SetMode": method("s") { call in
                configure(call) { session throws(AudioSessionError) in
                    try session.configuration.withMode(SessionMode.parse(call.arguments[0].stringValue ?? ""))
                }
            },
            "SetActive": method("bas") { call in
                let active = call.arguments[0].boolValue ?? false
                return withActiveOptions(call, at: 1) { .setActive($0, $1, caller: call.sender, active, $2) }
            },
            "RequestActivation": method("as") { call in
                withActiveOptions(call, at: 0) { .requestActivation($0, $1, caller: call.sender, $2) }
            },
            "SetPrefersNoInterruptionsFromSystemAlerts": method("b") { [unowned self] call in
                owned(call) { id, _ in
                    forward(call) {
                        .setPrefersNoInterruptionsFromSystemAlerts($0, id, caller: call.sender, call.arguments[0].boolValue ?? false)
                    }
                }
            },
            "SetNowPlayingPlayer": method("s") { [unowned self] call in
                owned(call) { id, _ in
                    forward(call) { .setNowPlayingPlayer($0, id, caller: call.sender, busName: call.arguments[0].stringValue ?? "") }
                }
            },
            "Release": method("") { [unowned self] call in
                owned(call) { id, _ in forward(call) { .releaseSession($0, id, caller: call.sender) } }
            },
        ].merging(permissionSessionMethods()) { $1 }.merging(hardwareSessionMethods()) { $1 }
        var properties: [String: ExportedProperty] = [:]
        for property in SessionProperty.allCases {
            properties[property.rawValue] = ExportedProperty(property.signature, getAt: { [unowned self] path in
                guard let session = Self.session(at: path).flatMap({ core.engine.sessions[$0] }) else { return .string("") }
                return SessionProperties.value(property, of: session, in: core.engine)
            })
        }
        return ExportedInterface(name: BusContract.sessionInterface, methods: methods, properties: properties,
                                 introspectionXML: Introspection.session)
    }

    // MARK: The engine's actions

    private func signal(_ id: SessionID, _ member: String, _ arguments: [BusValue] = []) {
        objects.emitSignal(path: Self.path(id), interface: BusContract.sessionInterface, member: member, arguments)
    }

    private func perform(_ action: PolicyAction) {
        // A client reading a property in its handler of a reply or a signal reads the state that
        // caused it (as on Apple's platforms): the properties of the step go out first.
        switch action {
        case .reply: emitPropertyChanges(readingNewSessionsLater: true)
        case .interruption, .routeChange, .secondaryAudioHint, .mediaServicesLost, .mediaServicesReset, .activationGranted:
            emitPropertyChanges()
        default: break
        }
        switch action {
        case .reply(let request, let result):
            defer { readNewSessions() }
            guard let message = pending.removeValue(forKey: request) else { return }
            switch result {
            case .success(.done): objects.reply(to: message, .reply([]))
            case .success(.sessionCreated(let id, let token)):
                objects.reply(to: message, .reply([.objectPath(Self.path(id)), .string(token)]))
            case .success(.bool(let value)): objects.reply(to: message, .reply([.bool(value)]))
            case .success(.activation(let state)): objects.reply(to: message, .reply([.string(state.rawValue)]))
            case .failure(let error): objects.reply(to: message, .error(error.busError))
            }
        case .sessionAdded(let id):
            exportSession(id)
            objects.emitSignal(path: BusContract.managerPath, interface: BusContract.managerInterface,
                               member: "SessionAdded", [.objectPath(Self.path(id))])
        case .sessionRemoved(let id):
            objects.unexport(path: Self.path(id))
            sentProperties[id] = nil
            objects.emitSignal(path: BusContract.managerPath, interface: BusContract.managerInterface,
                               member: "SessionRemoved", [.objectPath(Self.path(id))])
        case .interruption(let id, let type, let reason, let options, let interrupter, _, _):
            signal(id, "Interruption", [.string(type.rawValue),
                                         Codec.interruptionInfo(reason: reason, options: options, interrupter: interrupter)])
        case .routeChange(let id, let reason, let previous, _):
            signal(id, "RouteChange", [.string(reason.rawValue), Codec.encode(previous)])
        case .secondaryAudioHint(let id, let type):
            signal(id, "SilenceSecondaryAudioHint", [.string(type.rawValue)])
        case .pausePlayer(let id, _):
            if let session = core.engine.sessions[id] { players.send("Pause", toPlayerOf: session) }
        case .playPlayer(let id, _):
            if let session = core.engine.sessions[id] { players.send("Play", toPlayerOf: session) }
        case .mediaServicesLost(let id): signal(id, "MediaServicesWereLost")
        case .mediaServicesReset(let id): signal(id, "MediaServicesWereReset")
        case .activationGranted(let id): signal(id, "ActivationGranted")
        case .askRecordPermission(let app, let timeout): permissionQuestions.ask(app: app, timeout: timeout)
        default: break
        }
    }
}
