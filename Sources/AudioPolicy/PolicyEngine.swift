// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// Tunable windows of the engine.
public struct EngineSettings: Hashable, Sendable {
    /// A Bluetooth device that vanishes and comes back within this window switched profile: one
    /// configuration change, not an unplug.
    public var bluetoothReappearanceWindow: Duration = .milliseconds(300)
    /// After a route change is reported, follow-up changes of the same cause within this window
    /// (streams landing on their new device one by one) update the route without another report.
    public var routeSettleWindow: Duration = .milliseconds(150)
    /// Route changes within this window after a wake are reported as `wakeFromSleep`.
    public var wakeWindow: Duration = .seconds(2)
    /// The interval between two volume steps of a fade.
    public var fadeStep: Duration = .milliseconds(10)
    /// Up to this many streams fading at once step every ``fadeStep``; more step less often, in proportion.
    public var streamsPerFadeStep = 10
    /// A session with more streams than this changes them at once, without a fade: the server could
    /// not carry every step of every stream in time, and the first step would come late.
    public var maxFadingStreams = 30
    /// How long after a new stream of an app the bridge had changed the server may still apply its
    /// memory of the bridge's levels to it (WirePlumber restores a stream's levels a moment after
    /// pipewire-pulse first reports it).
    public var serverMemoryWindow: Duration = .seconds(1)
    /// After the default output changes, a stream the server moves from the old default to the new one
    /// within this window is the server following the default (not the user moving it): a policy that
    /// does not follow route changes has it moved back. The server reports the moves one stream at a
    /// time after the default, and says nothing of why.
    public var defaultOutputFollowWindow: Duration = .seconds(1)
    /// With more streams than this the engine decides no first moves ahead: deciding costs a few
    /// simulated steps on a copy of every stream (tens of milliseconds and megabytes at a thousand),
    /// and at that many streams the server, not the engine, sets the pace of a call's mutes.
    public var maxStreamsDecidedAhead = 200

    public init() {}
}

/// The rules of DESIGN.md §2 as a pure state machine: events in, actions out. It does no I/O, reads
/// no clock and logs nothing; every action carries its reason.
public struct PolicyEngine: Sendable {
    public var settings: EngineSettings

    /// Every session, explicit and policy.
    public internal(set) var sessions = SessionTable()
    /// Every sink and source the server reported.
    public internal(set) var devices: [DeviceID: DeviceInfo] = [:]
    /// Every card the server reported.
    public internal(set) var cards: [UInt32: CardInfo] = [:]
    /// The server's default sink and source names.
    public internal(set) var defaultDeviceName: [Direction: String] = [:]
    public internal(set) var serverName = ""
    public internal(set) var serverVersion = ""
    /// Whether the sound server is reachable.
    public internal(set) var isServerConnected = true
    /// The silent switch.
    public internal(set) var silentMode = false
    /// Whether the screen is locked, as last seen from the desktop.
    public internal(set) var screenLocked = false
    /// The policies in force.
    public internal(set) var policySet = PolicySet()

    var streams: [StreamID: TrackedStream] = [:]
    var sessionByToken: [String: SessionID] = [:]
    /// The explicit sessions by the process that created them, for attributing streams by process.
    var explicitSessionsByOwner: [Int32: Set<SessionID>] = [:]
    var policySessionByApp: [PolicySessionKey: SessionID] = [:]
    /// The user's levels of streams the bridge changed that have ended, with what the bridge had set on
    /// them, by the server's memory key: what the app's next stream is owed.
    var owedLevels: [String: OwedLevels] = [:]
    var deviceByName: [String: DeviceID] = [:]
    /// The record permissions the user decided, by app id.
    public internal(set) var recordPermissions: [String: RecordPermission] = [:]
    /// Open questions to the user, by app id, with the requests that wait for the answer.
    var permissionQuestions: [String: [RequestID]] = [:]
    /// Apps asked without a request of their own (they started recording) in this run: not again.
    var askedUnprompted: Set<String> = []
    /// Media-role sinks of WirePlumber's role-based policy (``PolicyEngine/noteServerPolicy(of:present:)``).
    var roleBasedTargets: Set<DeviceID> = []
    /// Sessions that duck others now.
    var duckingSessions: Set<SessionID> = []
    /// The number of events handled so far: orders appearances and reports within one instant.
    var eventSerial: UInt64 = 0
    /// The event serial at which each route uid last appeared or became available.
    var portAppearedAt: [String: UInt64] = [:]
    /// Output streams that are playing (uncorked), in any session or none.
    var playingOutputCount = 0
    var nextSessionNumber: UInt32 = 1
    var activationCounter: UInt64 = 0
    /// The place of the last request to wait for the turn (``Session/waitingTurn``).
    var turnCounter: UInt64 = 0
    var isAsleep = false
    /// The combined sinks of multiRoute sessions, and a serial that makes their names unique.
    public internal(set) var combinedOutputs: [SessionID: CombinedOutput] = [:]
    var combinedOutputSerial: UInt64 = 0
    /// The last change of the default output: from, to, and until when streams landing on it count as its doing.
    var defaultOutputChange: (from: DeviceID, to: DeviceID, until: EngineTime)?
    /// Set by ``PolicyEvent/shutdown``: no effect is applied any more.
    var isShuttingDown = false
    var wakeWindowEnd: EngineTime?
    var scheduledTick: EngineTime?
    /// Every stream with a fade running, and maybe some whose fade has ended (a superset, pruned as
    /// timers run): the timers look at these, not at every stream.
    var fadingStreams: Set<StreamID> = []
    /// Whether the server has yet to answer a mute or volume the bridge sent: the shell says so, as it
    /// gives the time. A fade's next step waits for the answers (``stepFades()``).
    public var levelCommandsUnanswered = false
    /// Every session with a route hold or an automatic deactivation pending, and maybe some that no
    /// longer have one (a superset, pruned as timers run).
    var timedSessions: Set<SessionID> = []
    var now = EngineTime.zero
    var emitted: [PolicyAction] = []
    /// The first moves decided ahead (``prepareFirstMoves()``).
    var firstMoveTable = FirstMoveTable()

    public init(settings: EngineSettings = EngineSettings(), policies: PolicySet = PolicySet()) {
        self.settings = settings
        self.policySet = policies
    }

    /// Handles one event that happened at `time` and returns what the shell must do, in order.
    public mutating func handle(_ event: PolicyEvent, at time: EngineTime) -> [PolicyAction] {
        now = max(now, time)
        eventSerial += 1
        emitted = []
        dispatch(event)
        runDueTimers()
        if !sessions.waitingIDs.isEmpty { grantWaitingTurns() }
        refreshSecondaryAudioHints()
        let next = nextDeadline()
        if let next, next != scheduledTick { emit(.scheduleTick(at: next)) }
        scheduledTick = next
        defer { emitted = [] }
        return emitted
    }

    mutating func emit(_ action: PolicyAction) { emitted.append(action) }

    private mutating func dispatch(_ event: PolicyEvent) {
        switch event {
        case .createSession(let request, let info): createExplicitSession(request, info)
        case .releaseSession(let request, let id, let caller): releaseRequested(request, id, caller: caller)
        case .ownerVanished(let busName): ownerVanished(busName)
        case .setConfiguration(let request, let id, let caller, let configuration):
            setConfiguration(request, id, caller: caller, configuration)
        case .setActive(let request, let id, let caller, let active, let options):
            setActive(request, id, caller: caller, active, options)
        case .requestActivation(let request, let id, let caller, let options):
            requestActivation(request, id, caller: caller, options)
        case .setPrefersNoInterruptionsFromSystemAlerts(let request, let id, let caller, let value):
            withOwnedSession(request, id, caller) { $0.prefersNoInterruptionsFromSystemAlerts = value }
        case .overrideOutput(let request, let id, let caller, let port): overrideOutput(request, id, caller, port)
        case .setPreferredInput(let request, let id, let caller, let uid): setPreferredInput(request, id, caller, uid)
        case .setInputGain(let request, let id, let caller, let gain): setInputGain(request, id, caller, gain)
        case .setNowPlayingPlayer(let request, let id, let caller, let name): setNowPlayingPlayer(request, id, caller, name)
        case .requestRecordPermission(let request, let id, let caller): requestRecordPermission(request, id, caller)
        case .setRecordPermission(let request, let app, let permission): setRecordPermission(request, app, permission)
        case .recordPermissionsLoaded(let decisions): recordPermissionsLoaded(decisions)
        case .recordPermissionAnswered(let app, let answer): recordPermissionAnswered(app, answer)
        case .setPreferredSampleRate(let request, let id, let caller, let hertz):
            setHint(request, id, caller, hertz, in: HardwareHints.sampleRates, name: "sample rate") {
                $0.preferredSampleRate = hertz
            }
        case .setPreferredIOBufferDuration(let request, let id, let caller, let seconds):
            setHint(request, id, caller, seconds, in: HardwareHints.ioBufferDurations, name: "IO buffer duration") {
                $0.preferredIOBufferDuration = seconds
            }
        case .serverInfo(let name, let version, let output, let input):
            serverInfo(name: name, version: version, defaultOutput: output, defaultInput: input)
            followBluetoothOutputs()
        case .deviceAppeared(let info):
            deviceAppeared(info)
            followBluetoothOutputs()
        case .deviceChanged(let info): deviceChanged(info)
        case .deviceVanished(let id): deviceVanished(id)
        case .cardAppeared(let card), .cardChanged(let card):
            cards[card.index] = card
            followBluetoothOutputs()
        case .cardVanished(let index): cards[index] = nil
        case .streamAppeared(let info): streamAppeared(info)
        case .streamChanged(let info): streamChanged(info)
        case .streamVanished(let id): streamVanished(id)
        case .streamSounding(let id): streamSound(id, sounding: true)
        case .streamSilent(let id): streamSound(id, sounding: false)
        case .playerChanged(let id, let change): playerChanged(id, change)
        case .actionFailed(let action, let error): actionFailed(action, error)
        case .firstMovesNotTaken(let moves): firstMovesNotTaken(moves)
        case .serverLost: serverLost()
        case .serverReset: serverReset()
        case .journalLeftovers(let entries): takeLeftovers(entries)
        case .silentMode(let on):
            silentMode = on
            refreshSilencedSessions()
        case .screenLocked(let locked):
            screenLocked = locked
            refreshSilencedSessions()
        case .sleep: sleep()
        case .wake: wake()
        case .policiesLoaded(let set): policiesLoaded(set)
        case .tick: break
        case .shutdown: shutDown()
        }
    }

    /// Runs the fades, windows and grace periods that are due.
    private mutating func runDueTimers() {
        stepFades()
        for id in timedSessions.sorted() {
            guard let session = sessions[id] else { continue }
            if let hold = session.routeHold, hold.deadline <= now { endRouteHold(id) }
            if let at = session.autoDeactivateAt, at <= now { autoDeactivateDue(id) }
        }
        timedSessions = timedSessions.filter { sessions[$0]?.routeHold != nil || sessions[$0]?.autoDeactivateAt != nil }
    }

    private func nextDeadline() -> EngineTime? {
        // A fade held for the server's answers keeps its deadline, already past: it is asked for once
        // (a deadline is emitted when it changes), and the answers bring the tick that takes the step.
        var deadlines: [EngineTime] = fadingStreams.compactMap { streams[$0]?.fade?.nextStep }
        for id in timedSessions {
            if let hold = sessions[id]?.routeHold { deadlines.append(hold.deadline) }
            if let at = sessions[id]?.autoDeactivateAt { deadlines.append(at) }
        }
        return deadlines.min()
    }

    // MARK: Reading the state

    /// The session a stream belongs to, if any.
    public func session(of stream: StreamID) -> SessionID? { streams[stream]?.session }

    /// The streams the engine knows, with the server's last report of each.
    public var streamInfos: [StreamID: StreamInfo] { streams.mapValues(\.info) }

    /// The sessions written since the last call (added, changed, released): the shell recomputes what
    /// it shows of these only, unless the devices or the playing streams changed.
    public mutating func takeTouchedSessions() -> Set<SessionID> { sessions.takeTouched() }

    /// How many output streams play, across all sessions (what `IsOtherAudioPlaying` depends on besides the session).
    public var playingOutputTotal: Int { playingOutputCount }

    /// Whether the bridge has a mute or volume change in force on the stream (including one being undone).
    public func hasEffect(on stream: StreamID) -> Bool { streams[stream]?.hasEffectInForce ?? false }

    /// What holds a stream muted or ducked now, and the duck's level (a fraction of the user's volume).
    public func effectCauses(on stream: StreamID) -> (causes: [EffectCause], duckLevel: Double?) {
        guard let stream = streams[stream] else { return ([], nil) }
        return (stream.effectCauses, stream.duckCauses.values.min())
    }

    /// For a stream whose sound the bridge watches, whether it carries sound now; nil for the others.
    public func isSounding(_ stream: StreamID) -> Bool? {
        streams[stream].flatMap { $0.soundMonitored ? !$0.silent : nil }
    }

    /// The streams with a mute or volume change in force: what the journal must hold.
    public var streamsWithEffects: Set<StreamID> { Set(streams.filter { $0.value.hasEffectInForce }.keys) }

    /// The levels the user chose for a stream, which the bridge restores.
    public func userLevels(of stream: StreamID) -> StreamLevels? { streams[stream]?.user }

    /// Whether another app is playing audio, as seen from this session.
    public func isOtherAudioPlaying(for id: SessionID) -> Bool {
        playingOutputCount - (sessions[id]?.playingOutputs ?? 0) > 0
    }

    /// The session's current route, computed from its streams and the defaults.
    public func currentRoute(of id: SessionID) -> RouteDescription {
        sessions[id].map(computeRoute) ?? .empty
    }

    /// The device the session's output (or input) uses first, for hardware values.
    public func primaryDevice(of id: SessionID, _ direction: Direction) -> DeviceInfo? {
        guard let session = sessions[id] else { return nil }
        return routeDevices(of: session, direction).first.flatMap { devices[$0] }
    }

    /// The hardware values a session reports: the actual ones of its route's devices.
    public func hardwareValues(of id: SessionID) -> HardwareValues {
        let output = primaryDevice(of: id, .output)
        let input = primaryDevice(of: id, .input)
        return HardwareValues(
            sampleRate: (output ?? input)?.sampleRate ?? 0,
            outputLatency: output?.latency ?? 0, inputLatency: input?.latency ?? 0,
            ioBufferDuration: (output ?? input)?.latency ?? 0,
            outputVolume: output.map { $0.mute ? 0 : min(1, $0.volume.level) } ?? 0,
            outputChannels: output?.channels.count ?? 0, inputChannels: input?.channels.count ?? 0)
    }

    /// The sessions of a bus connection.
    public func sessions(ownedBy busName: String) -> [SessionID] {
        sessions.owned(by: busName).sorted()
    }
}
