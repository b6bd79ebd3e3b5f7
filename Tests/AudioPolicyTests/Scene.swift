// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel

/// A fake sound server and bus around the engine, for unit tests only. It applies the engine's
/// commands to its own stream table and reports them back as a server would, keeps the journal the
/// engine writes, delivers ticks when asked, and collects what each session would receive.
struct Scene {
    var engine: PolicyEngine
    var now = EngineTime.zero
    /// The server's truth.
    var serverStreams: [StreamID: StreamInfo] = [:]
    var serverDevices: [DeviceID: DeviceInfo] = [:]
    /// The journal as the engine wrote it.
    var journal: [StreamID: JournalEntry] = [:]
    /// What the server remembers for apps' next streams.
    var remembered: [String: StreamLevels] = [:]
    /// Every action, in order, since the last ``mark()``.
    var actions: [PolicyAction] = []
    var replies: [RequestID: Result<ReplyValue, AudioSessionError>] = [:]
    var tickAt: EngineTime?
    /// Whether commands are reported back at once (a server that is fast) or held until ``deliverReports()``.
    var holdReports = false
    var heldReports: [PolicyEvent] = []
    /// Combined sinks to make or remove once the current event is handled, as the server would.
    var combineRequests: [(name: String, add: Bool)] = []
    private var nextRequest: UInt64 = 1
    private var nextIndex: UInt32 = 1

    let speaker: DeviceID
    let microphone: DeviceID

    init(policies: [SessionPolicy] = Scene.policies, settings: EngineSettings = EngineSettings()) {
        engine = PolicyEngine(settings: settings, policies: PolicySet(policies: policies))
        speaker = DeviceID(.output, 0)
        microphone = DeviceID(.input, 0)
        addDevice(DeviceInfo(id: speaker, name: "speaker", description: "Speakers",
                             properties: ["device.form_factor": "internal", "device.bus": "pci"]))
        addDevice(DeviceInfo(id: microphone, name: "mic", description: "Internal Microphone",
                             properties: ["device.form_factor": "internal", "device.bus": "pci"], channels: ["mono"]))
        send(.serverInfo(name: "fake", version: "1", defaultOutput: "speaker", defaultInput: "mic"))
        mark()
    }

    /// Policies for apps that never opt in, as the shipped files describe them.
    static let policies: [SessionPolicy] = {
        func config(_ c: SessionCategory, _ m: SessionMode = .default, _ o: CategoryOptions = []) -> SessionConfiguration {
            try! SessionConfiguration(category: c, mode: m, options: o)
        }
        return [
            SessionPolicy(name: "media-player", configuration: config(.playback), activation: .firstStream,
                          whenOutputRemoved: .pause, usesMPRIS: true,
                          match: PolicyMatch(applicationNames: ["Music Player"])),
            SessionPolicy(name: "browser-like", configuration: config(.playback), activation: .firstStream,
                          resume: .never, usesMPRIS: true, match: PolicyMatch(applicationNames: ["Browser"])),
            SessionPolicy(name: "voip", configuration: config(.playAndRecord, .voiceChat), activation: .firstStream,
                          match: PolicyMatch(applicationNames: ["Phone"])),
            SessionPolicy(name: "game", configuration: config(.ambient), activation: .firstStream,
                          match: PolicyMatch(applicationNames: ["Game"])),
            SessionPolicy(name: "navigation", configuration: config(.playback, .voicePrompt, .duckOthers),
                          activation: .perStream, match: PolicyMatch(applicationNames: ["Navigation"])),
            SessionPolicy(name: "notification", configuration: config(.playback), isAlert: true,
                          activation: .perStream, match: PolicyMatch(applicationNames: ["Alarm"])),
            SessionPolicy(name: "screen-reader", configuration: config(.playback, .spokenAudio),
                          activation: .firstStream),
            {
                var podcasts = SessionPolicy(name: "audiobook", configuration: config(.playback, .spokenAudio),
                                             activation: .firstStream, usesMPRIS: true,
                                             match: PolicyMatch(applicationNames: ["Podcasts"]))
                podcasts.whenDucked = .pause
                return podcasts
            }(),
        ]
    }()

    // MARK: Driving the engine

    mutating func send(_ event: PolicyEvent) {
        var queue = [event]
        while !queue.isEmpty {
            let next = queue.removeFirst()
            for action in engine.handle(next, at: now) {
                actions.append(action)
                if let report = apply(action) {
                    if holdReports { heldReports.append(report) } else { queue.append(report) }
                }
            }
        }
        let requests = combineRequests
        combineRequests = []
        for request in requests {
            if request.add {
                plug(.output, request.name, "multiRoute", properties: [:])
            } else if let id = serverDevices.values.first(where: { $0.name == request.name })?.id {
                unplug(id)
            }
        }
    }

    /// What a server would do with a command, and the report it would send back.
    private mutating func apply(_ action: PolicyAction) -> PolicyEvent? {
        switch action {
        case .setStreamMute(let id, let mute, _):
            serverStreams[id]?.mute = mute
            return serverStreams[id].map { .streamChanged($0) }
        case .setStreamVolume(let id, let volume, _):
            serverStreams[id]?.volume = volume
            return serverStreams[id].map { .streamChanged($0) }
        case .moveStream(let id, let device, _):
            serverStreams[id]?.device = device
            return serverStreams[id].map { .streamChanged($0) }
        case .setDeviceVolume(let id, let volume, _):
            serverDevices[id]?.volume = volume
            return serverDevices[id].map { .deviceChanged($0) }
        case .combineOutputs(let name, _, _): combineRequests.append((name, true))
        case .removeCombinedOutput(let name, _): combineRequests.append((name, false))
        case .journalWrite(let entry): journal[entry.stream] = entry
        case .journalClear(let id): journal[id] = nil
        case .rememberStreamLevels(let key, let levels, _): remembered[key] = levels
        case .scheduleTick(let at): tickAt = at
        case .reply(let request, let result): replies[request] = result
        default: break
        }
        return nil
    }

    mutating func deliverReports() {
        let reports = heldReports
        heldReports = []
        for report in reports { send(report) }
    }

    /// Lets `milliseconds` pass, delivering the ticks the engine asked for on the way.
    mutating func advance(_ milliseconds: UInt64) {
        let end = EngineTime(nanoseconds: now.nanoseconds + milliseconds * 1_000_000)
        while let at = tickAt, at <= end {
            tickAt = nil
            now = max(now, at)
            send(.tick)
        }
        now = end
    }

    /// Lets every fade and window finish.
    mutating func settle() { advance(10_000) }

    /// Forgets the actions seen so far.
    mutating func mark() { actions = [] }

    private mutating func request() -> RequestID {
        defer { nextRequest += 1 }
        return RequestID(nextRequest)
    }

    mutating func call(_ make: (RequestID) -> PolicyEvent) -> Result<ReplyValue, AudioSessionError> {
        let id = request()
        send(make(id))
        return replies[id] ?? .failure(AudioSessionError(.unspecified, "no reply"))
    }

    // MARK: The bus

    /// Creates an explicit session owned by `owner` and returns it.
    mutating func createSession(_ app: String, owner: String? = nil, pid: Int32? = nil) -> SessionID {
        let token = "token-\(app)-\(nextIndex)"
        nextIndex += 1
        let result = call {
            .createSession($0, SessionRequest(owner: owner ?? ":1.\(app)", ownerPID: pid, appID: app, token: token))
        }
        guard case .success(.sessionCreated(let id, _)) = result else { fatalError("createSession failed: \(result)") }
        return id
    }

    func owner(of id: SessionID) -> String { engine.sessions[id]?.owner ?? "nobody" }

    @discardableResult
    mutating func setCategory(_ id: SessionID, _ category: SessionCategory, mode: SessionMode = .default,
                              options: CategoryOptions = []) -> Result<ReplyValue, AudioSessionError> {
        let configuration = try! SessionConfiguration(category: category, mode: mode, options: options)
        let caller = owner(of: id)
        return call { .setConfiguration($0, id, caller: caller, configuration) }
    }

    @discardableResult
    mutating func setActive(_ id: SessionID, _ active: Bool, notify: Bool = false, caller: String? = nil)
        -> Result<ReplyValue, AudioSessionError>
    {
        let caller = caller ?? owner(of: id)
        return call { .setActive($0, id, caller: caller, active, notify ? .notifyOthersOnDeactivation : []) }
    }

    /// A session that is configured and active.
    mutating func activeSession(_ app: String, _ category: SessionCategory, mode: SessionMode = .default,
                                options: CategoryOptions = []) -> SessionID {
        let id = createSession(app)
        setCategory(id, category, mode: mode, options: options)
        guard case .success = setActive(id, true) else { fatalError("could not activate \(app)") }
        return id
    }

    // MARK: The server

    mutating func addDevice(_ info: DeviceInfo) {
        serverDevices[info.id] = info
        send(.deviceAppeared(info))
    }

    /// A new sink or source with these properties.
    @discardableResult
    mutating func plug(_ direction: Direction = .output, _ name: String, _ description: String,
                       properties: [String: String], card: UInt32? = nil) -> DeviceID {
        let id = DeviceID(direction, nextIndex)
        nextIndex += 1
        addDevice(DeviceInfo(id: id, name: name, description: description, properties: properties, card: card))
        return id
    }

    /// Wired headphones, as a separate sink.
    mutating func plugHeadphones(makeDefault: Bool = true) -> DeviceID {
        let id = plug(.output, "headphones", "Headphones",
                      properties: ["device.form_factor": "headphone", "device.bus": "pci"])
        if makeDefault { setDefault(.output, "headphones", moveStreams: true) }
        return id
    }

    /// Removes a device the way the server does: the device goes, then its streams land on the default.
    mutating func unplug(_ id: DeviceID) {
        guard let info = serverDevices.removeValue(forKey: id) else { return }
        send(.deviceVanished(id))
        let currentDefault = defaultName(id.direction) ?? ""
        let fallbackName = serverDevices.values.contains { $0.name == currentDefault }
            ? currentDefault : (id.direction == .output ? "speaker" : "mic")
        if fallbackName != defaultName(id.direction) { setDefault(id.direction, fallbackName, moveStreams: false) }
        let fallback = serverDevices.values.first { $0.name == fallbackName }?.id
        for (streamID, stream) in serverStreams.sorted(by: { $0.key < $1.key }) where stream.device == info.id {
            serverStreams[streamID]?.device = fallback
            send(.streamChanged(serverStreams[streamID]!))
        }
    }

    func defaultName(_ direction: Direction) -> String? { engine.defaultDeviceName[direction] }

    mutating func setDefault(_ direction: Direction, _ name: String, moveStreams: Bool) {
        var output = engine.defaultDeviceName[.output]
        var input = engine.defaultDeviceName[.input]
        if direction == .output { output = name } else { input = name }
        send(.serverInfo(name: "fake", version: "1", defaultOutput: output, defaultInput: input))
        guard moveStreams, let device = serverDevices.values.first(where: { $0.name == name })?.id else { return }
        for (streamID, stream) in serverStreams.sorted(by: { $0.key < $1.key })
        where streamID.direction == direction && stream.device != device {
            serverStreams[streamID]?.device = device
            send(.streamChanged(serverStreams[streamID]!))
        }
    }

    /// A new stream, playing (or recording) at once.
    @discardableResult
    mutating func startStream(_ app: String, in session: SessionID? = nil, role: String? = nil,
                              direction: Direction = .output, volume: UInt32 = 0xC000, muted: Bool = false,
                              pid: Int32? = nil, corked: Bool = false, mediaName: String? = nil) -> StreamID {
        let info = makeStream(app, in: session, role: role, direction: direction, volume: volume, muted: muted, pid: pid,
                              corked: corked, mediaName: mediaName)
        serverStreams[info.id] = info
        send(.streamAppeared(info))
        return info.id
    }

    /// A new stream as the server reports it, on the default device; neither the server nor the
    /// engine has it yet.
    mutating func makeStream(_ app: String, in session: SessionID? = nil, role: String? = nil,
                             direction: Direction = .output, volume: UInt32 = 0xC000, muted: Bool = false,
                             pid: Int32? = nil, corked: Bool = false, mediaName: String? = nil) -> StreamInfo {
        let id = StreamID(direction, nextIndex)
        nextIndex += 1
        let token = session.flatMap { engine.sessions[$0]?.token }
        return StreamInfo(
            id: id, app: AppIdentity(name: app), role: role, token: token, processChain: pid.map { [$0, 1] } ?? [],
            device: direction == .output ? device(named: defaultName(.output)) : device(named: defaultName(.input)),
            corked: corked, mute: muted, volume: ChannelVolumes(channels: 2, value: volume),
            restoreKey: "sink-input-by-application-name:\(app)", mediaName: mediaName)
    }

    func device(named name: String?) -> DeviceID? { serverDevices.values.first { $0.name == name }?.id }

    mutating func cork(_ id: StreamID, _ corked: Bool = true) {
        serverStreams[id]?.corked = corked
        send(.streamChanged(serverStreams[id]!))
    }

    mutating func stopStream(_ id: StreamID) {
        serverStreams[id] = nil
        send(.streamVanished(id))
    }

    /// The user changes a stream's volume in a mixer.
    mutating func userSetsVolume(_ id: StreamID, _ value: UInt32) {
        serverStreams[id]?.volume = ChannelVolumes(channels: 2, value: value)
        send(.streamChanged(serverStreams[id]!))
    }

    mutating func userSetsMute(_ id: StreamID, _ mute: Bool) {
        serverStreams[id]?.mute = mute
        send(.streamChanged(serverStreams[id]!))
    }

    /// The user moves a stream to another device in a mixer.
    mutating func userMoves(_ id: StreamID, to device: DeviceID) {
        serverStreams[id]?.device = device
        send(.streamChanged(serverStreams[id]!))
    }

    mutating func setDeviceMute(_ id: DeviceID, _ mute: Bool) {
        serverDevices[id]?.mute = mute
        send(.deviceChanged(serverDevices[id]!))
    }

    // MARK: What was seen

    func levels(_ id: StreamID) -> StreamLevels { serverStreams[id]!.levels }
    func isMuted(_ id: StreamID) -> Bool { serverStreams[id]!.mute }
    func volume(_ id: StreamID) -> UInt32 { serverStreams[id]!.volume.values[0] }

    struct SeenInterruption: Equatable {
        var type: InterruptionType
        var reason: InterruptionReason
        var shouldResume: Bool
        var interrupter: String?
    }

    func interruptions(_ id: SessionID) -> [SeenInterruption] {
        actions.compactMap {
            guard case .interruption(id, let type, let reason, let options, let interrupter, _, _) = $0 else { return nil }
            return SeenInterruption(type: type, reason: reason, shouldResume: options.contains(.shouldResume),
                                    interrupter: interrupter)
        }
    }

    func interruptionTypes(_ id: SessionID) -> [InterruptionType] { interruptions(id).map(\.type) }

    func routeChanges(_ id: SessionID) -> [(reason: RouteChangeReason, previous: RouteDescription, current: RouteDescription)] {
        actions.compactMap {
            guard case .routeChange(id, let reason, let previous, let current) = $0 else { return nil }
            return (reason, previous, current)
        }
    }

    func routeReasons(_ id: SessionID) -> [RouteChangeReason] { routeChanges(id).map(\.reason) }

    func hints(_ id: SessionID) -> [SilenceSecondaryAudioHintType] {
        actions.compactMap {
            guard case .secondaryAudioHint(id, let type) = $0 else { return nil }
            return type
        }
    }

    func playerCommands(_ id: SessionID) -> [String] {
        actions.compactMap {
            switch $0 {
            case .pausePlayer(id, _): "pause"
            case .playPlayer(id, _): "play"
            default: nil
            }
        }
    }

    func policySession(of stream: StreamID) -> SessionID { engine.session(of: stream)! }

    func error(_ result: Result<ReplyValue, AudioSessionError>) -> ErrorCode? {
        if case .failure(let error) = result { return error.code }
        return nil
    }
}
