// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// What a successful method call returns.
public enum ReplyValue: Hashable, Sendable {
    case done
    case sessionCreated(SessionID, token: String)
    /// A yes or no (`RequestRecordPermission`).
    case bool(Bool)
    /// Where the session stands (`RequestActivation`: active or waiting).
    case activation(ActivationState)
}

/// What happened to a request to wait for the turn (the `activation.*` records).
public enum TurnChange: String, Hashable, Sendable {
    /// The session waits; `blocker` is the session it waits for.
    case waiting
    /// The session became active by itself (`ActivationGranted`).
    case granted
    /// The request was withdrawn: `SetActive(false)`, or its session released, or its owner gone.
    case withdrawn
}

/// Whether a session was created over the bus or made by the bridge for an app that never opted in.
public enum SessionKind: String, Hashable, Sendable {
    case explicit
    case policy
}

/// What the journal holds for one stream the bridge changed: enough to undo it after a crash.
public struct JournalEntry: Hashable, Sendable {
    public var stream: StreamID
    /// The server's memory key for the stream's app (`module-stream-restore.id`).
    public var restoreKey: String?
    /// The levels the user had and will get back.
    public var original: StreamLevels
    /// The levels the bridge is moving the stream to.
    public var applied: StreamLevels

    public init(stream: StreamID, restoreKey: String?, original: StreamLevels, applied: StreamLevels) {
        self.stream = stream
        self.restoreKey = restoreKey
        self.original = original
        self.applied = applied
    }
}

/// What holds a stream muted or ducked, as the event log names it.
public enum EffectCause: Hashable, Sendable {
    /// An interruption by that session.
    case interruption(SessionID)
    /// That session ducks others.
    case ducker(SessionID)
    case silentMode
    case screenLock
    /// The app may not record, or its category has no input or output.
    case refusal
    /// The app's session waits for its turn (`RequestActivation`).
    case waitingForTurn

    /// Its name in the event log's `causes`: `interruption:session/2`, `ducker:session/3`,
    /// `silent-mode`, `screen-lock`, `refused` or `waiting-for-turn`.
    public var logName: String {
        switch self {
        case .interruption(let id): "interruption:\(id)"
        case .ducker(let id): "ducker:\(id)"
        case .silentMode: "silent-mode"
        case .screenLock: "screen-lock"
        case .refusal: "refused"
        case .waitingForTurn: "waiting-for-turn"
        }
    }

    /// The session that causes it, if a session does.
    public var session: SessionID? {
        switch self {
        case .interruption(let id), .ducker(let id): id
        default: nil
        }
    }
}

/// A record of the event log that no other action carries.
public enum EventRecord: Hashable, Sendable {
    /// `why`: for a policy session, the fact and rule that chose its policy.
    case sessionCreated(SessionID, app: String, kind: SessionKind, policy: String, why: String?)
    case sessionReleased(SessionID, app: String, kind: SessionKind, policy: String)
    case sessionCategory(SessionID, app: String, SessionConfiguration)
    case sessionActive(SessionID, app: String, active: Bool, error: AudioSessionError?)
    /// A request to wait for the turn: waiting (with the session it waits for), granted or withdrawn.
    case turn(SessionID, app: String, TurnChange, blocker: SessionID?)
    case streamAdded(StreamID, app: String, role: String?, session: SessionID?)
    case streamRemoved(StreamID, app: String, role: String?, session: SessionID?)
    case deviceAdded(DeviceID, PortDescription)
    case deviceRemoved(DeviceID, PortDescription)
    case deviceChanged(DeviceID, PortDescription)
    /// An input device was muted or unmuted (what `builtInMicMuted` follows).
    case deviceMute(DeviceID, PortDescription, muted: Bool)
    case serverLost(server: String)
    case serverReset(server: String)
    /// A policy of the sound server's own that the bridge leaves in charge of some streams (WirePlumber
    /// 0.5's role-based linking), with the devices it governs, came into force or went.
    case serverPolicy(String, inForce: Bool, devices: [String])
    /// The server's default sink and source changed (as the bridge learnt them).
    case defaultDevices(output: String?, input: String?)
    /// The bridge starts changing a stream: `mute`, `unmute`, `duck`, `unduck` or `move`. `causes` are
    /// what holds it changed after the change (``EffectCause``); `level` is the duck's, as a fraction of
    /// the user's volume.
    case effect(String, stream: StreamID, session: SessionID?, why: String, causes: [EffectCause] = [], level: Double? = nil)
    /// An app's record permission, and where it came from: `user`, `stored`, `policy` or `timeout`.
    case permission(app: String, RecordPermission, source: String)
    /// An app's policy session acts as a call, or no longer, and why.
    case call(SessionID, app: String, inCall: Bool, why: String)
    /// A stream whose sound is watched became silent (for its policy's time) or sounds again.
    case streamSound(StreamID, app: String, sounding: Bool)
    /// The server refused a command: what it was (`mute`, `volume`, `move`, `gain`, …), the object it
    /// was for, and the server's error.
    case commandFailed(String, subject: String, error: String)
}

/// Everything the engine asks the shell to do. Actions that change something carry their reason.
public enum PolicyAction: Hashable, Sendable {
    // Answers and signals on the bus.
    case reply(RequestID, Result<ReplyValue, AudioSessionError>)
    case sessionAdded(SessionID)
    case sessionRemoved(SessionID)
    /// `interrupter`: the app that interrupts, and `interrupterSession` its session, when a session does.
    /// `takenBack`, on `ended` without `shouldResume` though it was asked for: how the user took the
    /// session back during the interruption (``Session/takenBack``).
    case interruption(SessionID, InterruptionType, reason: InterruptionReason, options: InterruptionOptions,
                      interrupter: String?, interrupterSession: SessionID? = nil, takenBack: String? = nil)
    case routeChange(SessionID, RouteChangeReason, previous: RouteDescription, current: RouteDescription)
    case secondaryAudioHint(SessionID, SilenceSecondaryAudioHintType)
    case mediaServicesLost(SessionID)
    case mediaServicesReset(SessionID)
    /// A session that waited for its turn became active by itself (`ActivationGranted`).
    case activationGranted(SessionID)

    // Commands to the sound server.
    case setStreamMute(StreamID, Bool, why: String)
    case setStreamVolume(StreamID, ChannelVolumes, why: String)
    case moveStream(StreamID, to: DeviceID, why: String)
    /// A device's volume, as an app's `setInputGain` asks (kept: it is not an effect to undo).
    case setDeviceVolume(DeviceID, ChannelVolumes, why: String)
    case setCardProfile(card: UInt32, profile: String, why: String)
    /// A sink named `name` that plays to every one of `outputs` (`module-combine-sink`), for multiRoute.
    case combineOutputs(name: String, outputs: [String], why: String)
    /// Removes a sink made by ``combineOutputs(name:outputs:why:)``.
    case removeCombinedOutput(name: String, why: String)
    /// Make the server remember these levels for the app's next stream (repairs its stream memory).
    case rememberStreamLevels(restoreKey: String, StreamLevels, why: String)

    // The sound of streams (DESIGN §2, "Sound, not presence").
    /// Watch the stream's level and report ``PolicyEvent/streamSounding(_:)`` and ``PolicyEvent/streamSilent(_:)``: silent after
    /// `silence` without sound, sounding at the first sound after that.
    case watchSound(StreamID, silence: Duration)
    /// Stop watching the stream's level.
    case stopWatchingSound(StreamID)

    // Record permission.
    /// Ask the user whether the app may record (a desktop notification with Allow and Deny); the
    /// answer comes back as ``PolicyEvent/recordPermissionAnswered(app:_:)``, nil after `timeout`.
    case askRecordPermission(app: String, timeout: Duration)
    /// Keep the app's decision (`undetermined`: forget it).
    case storeRecordPermission(app: String, RecordPermission)

    // Players.
    case pausePlayer(SessionID, why: String)
    case playPlayer(SessionID, why: String)

    // The journal, written before an effect is applied and cleared when it is undone.
    case journalWrite(JournalEntry)
    case journalClear(StreamID)

    // Bookkeeping.
    case record(EventRecord)
    /// Deliver a ``PolicyEvent/tick`` at this time (replaces any earlier request).
    case scheduleTick(at: EngineTime)
}

extension PolicyAction {
    /// Whether the action is a command to the sound server.
    public var isServerCommand: Bool {
        switch self {
        case .setStreamMute, .setStreamVolume, .moveStream, .setDeviceVolume, .setCardProfile, .combineOutputs, .removeCombinedOutput, .rememberStreamLevels: true
        default: false
        }
    }

    /// A server command's name and the object it is for, as the event log names them (nil for other actions).
    public var commandSubject: (name: String, subject: String)? {
        switch self {
        case .setStreamMute(let id, let mute, _): (mute ? "mute" : "unmute", id.description)
        case .setStreamVolume(let id, _, _): ("volume", id.description)
        case .moveStream(let id, let device, _): ("move", "\(id) to \(device)")
        case .setDeviceVolume(let id, _, _): ("gain", id.description)
        case .setCardProfile(let card, let profile, _): ("profile", "card/\(card) to \(profile)")
        case .combineOutputs(let name, _, _): ("combine", name)
        case .removeCombinedOutput(let name, _): ("uncombine", name)
        case .rememberStreamLevels(let key, _, _): ("remember", key)
        default: nil
        }
    }

    /// Whether the action answers a method call.
    public var isReply: Bool {
        if case .reply = self { true } else { false }
    }

    /// Whether the action writes or clears the journal (which comes before the commands it covers).
    public var isJournal: Bool {
        switch self {
        case .journalWrite, .journalClear: true
        default: false
        }
    }
}
