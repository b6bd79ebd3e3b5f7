// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// How a session governed by a policy becomes active.
public enum ActivationMode: String, Hashable, Sendable, CaseIterable {
    /// Only when asked (over D-Bus, or by `audiosessionctl exec`).
    case explicit
    /// When its first stream starts; inactive again after the last one has stopped for the grace period.
    case firstStream
    /// Like ``firstStream``, with no grace period: each stream is an activation of its own.
    case perStream
}

/// What an interruption does to a session's streams.
public enum InterruptionResponse: String, Hashable, Sendable, CaseIterable {
    /// Mute its streams (and pause the player through MPRIS where the policy allows).
    case pause
    /// Lower its streams to the duck level instead of muting them.
    case duck
    /// Nothing: the session plays on. Only a call interrupts it.
    case mix
}

/// What another session's ducking does to a session's streams (DESIGN §2, *Spoken audio is paused,
/// not ducked*).
public enum DuckResponse: String, Hashable, Sendable, CaseIterable {
    /// Lower them to the ducker's level.
    case duck
    /// Pause the session while the voice speaks (through MPRIS for an unmodified player, an
    /// interruption for an app that opted in), and resume it when the voice ends.
    case pause
}

/// Whether a paused player is started again when its interruption ends.
public enum ResumePolicy: String, Hashable, Sendable, CaseIterable {
    /// Never; the user presses play.
    case never
    /// When the interruption ends with `shouldResume`.
    case onShouldResume
    /// When it ends with `shouldResume`, and only if it was playing when it began.
    case ifWasPlaying
}

/// What happens when the output a session plays to is removed.
public enum OutputRemovedResponse: String, Hashable, Sendable, CaseIterable {
    /// Pause the player when the removed output was personal (headphones): the privacy rule.
    case pause
    /// Nothing beyond the route change.
    case ignore
}

/// What stands for an app's recording until the user decides (policy key `record.permission`):
/// unmodified apps are allowed by default; apps that create a session are asked.
public enum RecordPermissionDefault: String, Hashable, Sendable {
    case granted
    case ask
    case denied
}

/// The rules that govern one kind of app. Explicit sessions use ``SessionPolicy/explicitDefault``
/// unless they ask for a named policy; policy sessions use the policy that matched their app.
public struct SessionPolicy: Hashable, Sendable {
    public var name: String
    public var configuration: SessionConfiguration
    /// Rank among sessions. Ordinary sessions share 0; calls rank at ``callPriority`` and system
    /// alerts at ``alertPriority`` unless the policy gives more.
    public var priority: Int
    /// A system alert: interrupts others except those that prefer no interruptions from alerts.
    public var isAlert: Bool
    public var activation: ActivationMode
    /// How long a policy session stays active after its last stream stops.
    public var releaseGrace: Duration
    /// When set, the session's output streams count as playing only while they carry sound: after
    /// this much silence one counts as stopped, though it stays open (DESIGN §2, "Sound, not presence").
    public var releaseAfterSilence: Duration?
    public var whenInterrupted: InterruptionResponse
    public var resume: ResumePolicy
    public var whenOutputRemoved: OutputRemovedResponse
    /// Whether the session's streams follow the default device when it changes.
    public var followsRouteChanges: Bool
    /// Whether ending this session's activation tells the sessions it interrupted that they may resume.
    public var notifiesOthersOnDeactivation: Bool
    /// The level others are lowered to while this session ducks them (0…1 of their own volume).
    public var duckLevel: Double
    /// How long a duck or unduck takes.
    public var duckFade: Duration
    /// How long the fade before an interruption's mute takes.
    public var interruptionFade: Duration
    /// Whether the bridge may pause and play the app through MPRIS.
    public var usesMPRIS: Bool
    /// When an app of this policy is in a call (and its session acts as one) though it never said so.
    public var calls = CallDetection()
    /// What stands for recording while the user has not decided: allowed, asked, or silenced.
    public var recordPermission: RecordPermissionDefault = .granted
    /// How long the question to the user may stay unanswered before the default stands.
    public var recordPermissionTimeout: Duration = .seconds(60)
    /// What another session's ducking does to the app: `duck` it, or `pause` it while the voice speaks.
    public var whenDucked: DuckResponse = .duck
    /// Which apps the policy governs when they never opt in.
    public var match: PolicyMatch

    public init(
        name: String, configuration: SessionConfiguration = .initial, priority: Int = 0, isAlert: Bool = false,
        activation: ActivationMode = .explicit, releaseGrace: Duration = .seconds(2),
        whenInterrupted: InterruptionResponse = .pause, resume: ResumePolicy = .onShouldResume,
        whenOutputRemoved: OutputRemovedResponse = .ignore, followsRouteChanges: Bool = true,
        notifiesOthersOnDeactivation: Bool = true, duckLevel: Double = 0.2, duckFade: Duration = .milliseconds(200),
        interruptionFade: Duration = .milliseconds(30), usesMPRIS: Bool = false, match: PolicyMatch = PolicyMatch()
    ) {
        self.name = name
        self.configuration = configuration
        self.priority = priority
        self.isAlert = isAlert
        self.activation = activation
        self.releaseGrace = releaseGrace
        self.whenInterrupted = whenInterrupted
        self.resume = resume
        self.whenOutputRemoved = whenOutputRemoved
        self.followsRouteChanges = followsRouteChanges
        self.notifiesOthersOnDeactivation = notifiesOthersOnDeactivation
        self.duckLevel = duckLevel
        self.duckFade = duckFade
        self.interruptionFade = interruptionFade
        self.usesMPRIS = usesMPRIS
        self.match = match
    }

    /// The rank of calls: the phone always wins.
    /// The priority sessions share unless their policy gives another.
    public static let ordinaryPriority = 0
    public static let callPriority = 100
    /// The rank of system alerts.
    public static let alertPriority = 50

    /// What an app that creates its own session gets: the app itself decides when to activate,
    /// pause and resume.
    public static let explicitDefault: SessionPolicy = {
        var policy = SessionPolicy(name: "explicit")
        policy.recordPermission = .ask
        return policy
    }()
}

/// The policies in force and the fallbacks by `media.role` for streams no rule matched.
public struct PolicySet: Hashable, Sendable {
    /// Policies in order of precedence; the first whose rules match wins.
    public var policies: [SessionPolicy] { didSet { choiceIndex = ChoiceIndex(policies) } }
    /// `media.role` → policy name, for streams no policy rule matched.
    public var fallbackByRole: [String: String]
    /// What ``choice(for:role:)`` looks up, made from `policies`.
    private(set) var choiceIndex: ChoiceIndex

    public init(policies: [SessionPolicy] = [], fallbackByRole: [String: String] = PolicySet.standardFallbacks) {
        self.policies = policies
        self.fallbackByRole = fallbackByRole
        choiceIndex = ChoiceIndex(policies)
    }

    /// `phone` → call, `event` → alert, `music`/`video` → media, `game` → game, `a11y` → spoken audio.
    public static let standardFallbacks: [String: String] = [
        "phone": "voip", "event": "notification", "music": "media-player", "video": "media-player",
        "game": "game", "a11y": "screen-reader",
    ]

    /// The policy with that name.
    public func policy(named name: String) -> SessionPolicy? { policies.first { $0.name == name } }
}
