// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// What interrupts a session.
public enum Interrupter: Hashable, Sendable {
    /// Another session that activated.
    case session(SessionID)
    /// The microphone the session records from was muted.
    case microphoneMuted(DeviceID)
    /// That session ducks others while this one plays spoken audio, which is paused instead
    /// (``Session/pausesForVoices``); it ends with `shouldResume` when the voice ends.
    case voice(SessionID)
}

/// A route report held back while a Bluetooth device may be switching profile.
struct RouteHold: Hashable, Sendable {
    var deadline: EngineTime
    var bluetoothAddress: String
}

extension Session {
    /// Whether a stream's app names this session's app: its application name, binary, desktop id or
    /// Flatpak id equals the session's app id or the owner's executable (letter case aside).
    func isSameApp(as app: AppIdentity) -> Bool {
        let ours = Set([appID, ownerBinary].compactMap { $0?.lowercased() })
        return [app.name, app.binary, app.script, app.desktopID, app.unitDesktopID, app.flatpakID].contains { $0.map { ours.contains($0.lowercased()) } ?? false }
    }
}

/// One audio session as the engine sees it.
public struct Session: Hashable, Sendable {
    public let id: SessionID
    public let kind: SessionKind
    public var appID: String
    /// The unique bus name of the owner (explicit sessions only).
    public var owner: String?
    public var ownerPID: Int32?
    /// The file name of the owner's executable (explicit sessions), when known.
    public var ownerBinary: String?
    /// For policy sessions: the process of the first stream and its ancestors (to find the app's player).
    public var processChain: [Int32] = []
    public var token: String?
    /// For policy sessions: the policy and the app they govern (``AppIdentity/key``).
    public var appKey: PolicySessionKey?
    /// For a policy session, the fact and rule that chose its policy ("its binary 'mpv' is in [match] binaries").
    public var policyReason: String?
    public var policy: SessionPolicy
    public var configuration: SessionConfiguration
    public var isActive = false
    public var interrupters: Set<Interrupter> = []
    public var prefersNoInterruptionsFromSystemAlerts = false
    /// The MPRIS player an explicit session registered (`SetNowPlayingPlayer`): the bridge pauses and
    /// plays it as it does the players of policy sessions.
    public var nowPlayingPlayer: String?
    public var outputOverride = OutputOverride.none
    /// The uid of the preferred input, if any.
    public var preferredInput: String?
    /// The preferred sample rate in hertz (0: none), a hint.
    public var preferredSampleRate: Double = 0
    /// The preferred IO buffer duration in seconds (0: none), a hint.
    public var preferredIOBufferDuration: Double = 0
    /// Why a policy session acts as a call now, though its policy is another (nil: it does not).
    public internal(set) var call: CallReason?
    /// A call just ended while streams of it still ran (the far end closes a moment after the
    /// microphone): they do not activate the session again; a stream that starts or joins does.
    var quietAfterCall = false
    /// The route last reported to the app.
    public internal(set) var reportedRoute = RouteDescription.empty
    /// Whether the app has been told to silence secondary audio.
    public internal(set) var secondaryAudioShouldBeSilenced = false

    var activationSerial: UInt64 = 0
    /// While the session waits for its turn (`RequestActivation`), the place of its request: requests
    /// are granted in this order.
    public internal(set) var waitingTurn: UInt64?
    /// The event serial of the last route report (or of the session's creation).
    var lastRouteReport: UInt64 = 0
    var routeSettleUntil: EngineTime?
    var routeHold: RouteHold?
    var wasPlayingWhenInterrupted = false
    var pausedPlayer = false
    /// How many times the bridge played the session's player (MPRIS `Play`) without seeing its stream
    /// start since: each of the next starts is the bridge's own doing, not the user's (DESIGN §2,
    /// *Resume only what was playing*). A player may carry out a `Play` after the bridge asked for the
    /// next `Pause` and `Play` (four quick voices), and its stream's starts are then reported late.
    var ownPlaysUnseen = 0
    /// Whether the bridge played the player and has not seen it start: until then it counts as playing.
    var awaitsOwnPlay: Bool { ownPlaysUnseen > 0 }
    /// How the user took the session back during its interruption (its stream played again, not at the
    /// bridge's asking; its player played, stopped or skipped): the interruption ends without
    /// `shouldResume`, and the event log says why.
    var takenBack: String?
    /// Whether the bridge pauses and plays this session's player: a policy session's when its policy
    /// allows MPRIS, an explicit session's when it registered one.
    var drivesPlayer: Bool { kind == .policy ? policy.usesMPRIS : nowPlayingPlayer != nil }
    var autoDeactivateAt: EngineTime?
    /// A card profile switched for this session, and the profile to go back to.
    var profileSwitch: ProfileSwitch?
    /// The Bluetooth headset whose profile this activation has already matched to its options (switched,
    /// or found right): a later change of that headset's profile is the user's and stays.
    var matchedBluetoothOutput: String?
    var streamIDs: Set<StreamID> = []
    /// Uncorked output streams.
    var playingOutputs = 0
    /// Uncorked streams of either direction.
    var runningStreams = 0

    struct ProfileSwitch: Hashable, Sendable {
        var card: UInt32
        var previous: String
    }

    init(id: SessionID, kind: SessionKind, appID: String, policy: SessionPolicy) {
        self.id = id
        self.kind = kind
        self.appID = appID
        self.policy = policy
        self.configuration = policy.configuration
    }

    /// Active, waiting for its turn, or neither.
    public var activationState: ActivationState { isActive ? .active : (waitingTurn != nil ? .waiting : .inactive) }

    /// Whether another session's ducking pauses this one instead (DESIGN §2, *Spoken audio is paused,
    /// not ducked*): its policy says so, or it opted in with mode `spokenAudio`.
    public var pausesForVoices: Bool {
        policy.whenDucked == .pause || (kind == .explicit && configuration.mode == .spokenAudio)
    }

    /// Whether the session is interrupted now.
    public var isInterrupted: Bool { !interrupters.isEmpty }

    /// The session's rank: calls above alerts above the policy's own priority.
    public var rank: Int {
        if configuration.isCall { return max(policy.priority, SessionPolicy.callPriority) }
        if policy.isAlert { return max(policy.priority, SessionPolicy.alertPriority) }
        return policy.priority
    }

    /// Whether the session mixes with other non-mixable sessions.
    public var mixesWithOthers: Bool { configuration.mixesWithOthers }

    /// Whether the session activates by itself when its streams play.
    var activatesAutomatically: Bool { kind == .policy && policy.activation != .explicit }

    /// Sessions that are silenced by secondary-audio hints count as primary audio when they are active,
    /// do not mix and play output.
    var isPrimaryAudio: Bool { isActive && !mixesWithOthers && configuration.category.hasOutput }
}

/// Why the engine is looking at routes again.
enum RouteCause: Hashable, Sendable {
    case deviceRemoved(bluetoothAddress: String?)
    /// A stream whose device vanished landed where the server moved it.
    case orphanLanded
    case portUnavailable
    case deviceAdded
    case categoryChange
    case override
    case userMove
    case defaultChanged
    case streamChange
    case wake
}

/// What a policy session is the one session of: an app under a policy, or, for a policy that watches
/// for calls, a process (an app that plays and records under two names from one process is one app).
/// A key of its parts, not a string made of them: looking one up makes nothing.
public struct PolicySessionKey: Hashable, Sendable {
    /// The policy's name.
    public var policy: String
    /// The app's key (``AppIdentity/key``), or nil for a process's session.
    public var app: String?
    /// The process, for a process's session.
    public var process: Int32?

    /// The session of an app under a policy.
    public init(policy: String, app: String) {
        self.policy = policy
        self.app = app
    }

    /// The session of a process under a policy that watches for calls.
    public init(policy: String, process: Int32) {
        self.policy = policy
        self.process = process
    }
}
