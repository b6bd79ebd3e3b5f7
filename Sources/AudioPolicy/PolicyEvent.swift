// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// What an explicit session's creator asked for.
public struct SessionRequest: Hashable, Sendable {
    /// The caller's unique bus name: the only connection allowed to change the session.
    public var owner: String
    /// The process the session speaks for (the caller, or a child of it that it launched).
    public var ownerPID: Int32?
    public var appID: String
    /// The stream token the shell generated; streams carrying it join the session.
    public var token: String
    /// The policy to start from, when the creator named one.
    public var policyName: String?
    /// The file name of the owner process's executable, when known: a descendant naming it is the
    /// same app.
    public var ownerBinary: String?

    public init(owner: String, ownerPID: Int32?, appID: String, token: String, policyName: String? = nil,
                ownerBinary: String? = nil) {
        self.owner = owner
        self.ownerPID = ownerPID
        self.appID = appID
        self.token = token
        self.policyName = policyName
        self.ownerBinary = ownerBinary
    }
}

/// Which output an app asked for (`AVAudioSession.PortOverride`).
public enum OutputOverride: String, Hashable, Sendable, CaseIterable {
    case none
    case speaker
}

/// Everything that can happen to the engine. Each event arrives with the time it happened.
public enum PolicyEvent: Hashable, Sendable {
    // Sessions, from the bus.
    case createSession(RequestID, SessionRequest)
    case releaseSession(RequestID?, SessionID, caller: String?)
    /// The owner's connection went away.
    case ownerVanished(busName: String)
    case setConfiguration(RequestID, SessionID, caller: String, SessionConfiguration)
    case setActive(RequestID, SessionID, caller: String, Bool, SetActiveOptions)
    /// `RequestActivation`: activate now if allowed, else wait for the turn (DESIGN §2).
    case requestActivation(RequestID, SessionID, caller: String, SetActiveOptions)
    case setPrefersNoInterruptionsFromSystemAlerts(RequestID, SessionID, caller: String, Bool)
    /// The session's app asks for the record permission (`RequestRecordPermission`).
    case requestRecordPermission(RequestID, SessionID, caller: String)
    /// The user set, or with `undetermined` reset, an app's record permission (`audiosessionctl permission`).
    case setRecordPermission(RequestID, app: String, RecordPermission)
    /// The decisions kept from earlier runs.
    case recordPermissionsLoaded([String: RecordPermission])
    /// The user answered the question about an app (nil: no answer — no notification server, the
    /// notification closed, or the timeout — and the policy's default stands).
    case recordPermissionAnswered(app: String, RecordPermission?)
    /// The MPRIS bus name of the player that speaks for the session; `""` clears it.
    case setNowPlayingPlayer(RequestID, SessionID, caller: String, busName: String)
    case overrideOutput(RequestID, SessionID, caller: String, OutputOverride)
    /// `""` clears the preference.
    case setPreferredInput(RequestID, SessionID, caller: String, uid: String)
    /// The gain (0…1) of the session's input device.
    case setInputGain(RequestID, SessionID, caller: String, Double)
    /// A hint, in hertz: stored and reported; the actual rate is the device's.
    case setPreferredSampleRate(RequestID, SessionID, caller: String, Double)
    /// A hint, in seconds: stored and reported; the actual duration is the device's latency.
    case setPreferredIOBufferDuration(RequestID, SessionID, caller: String, Double)

    // The sound server.
    case serverInfo(name: String, version: String, defaultOutput: String?, defaultInput: String?)
    case deviceAppeared(DeviceInfo)
    case deviceChanged(DeviceInfo)
    case deviceVanished(DeviceID)
    case cardAppeared(CardInfo)
    case cardChanged(CardInfo)
    case cardVanished(UInt32)
    case streamAppeared(StreamInfo)
    case streamChanged(StreamInfo)
    case streamVanished(StreamID)
    /// A stream whose sound the bridge watches (``PolicyAction/watchSound(_:silence:)``) sounds again
    /// after silence.
    case streamSounding(StreamID)
    /// A stream whose sound the bridge watches has been silent for the time asked.
    case streamSilent(StreamID)
    /// A player the bridge paused (``PolicyAction/pausePlayer(_:why:)``) changed after the pause took
    /// effect: the user may have taken it back.
    case playerChanged(SessionID, PlayerChange)
    /// A command the engine asked for failed (the stream is gone, …).
    case actionFailed(PolicyAction, AudioSessionError)
    case serverLost
    /// Moves the shell sent ahead of the step of a new stream (``PolicyEngine/firstMoves(for:)``) that
    /// the step did not take: the engine puts each of them right.
    case firstMovesNotTaken([PolicyAction])
    /// The server is back and everything was read again (after the appeared events).
    case serverReset
    /// What the journal of an earlier run still holds, once the server has been read: the engine
    /// puts each stream back and repairs the server's memory (``PolicyEngine/takeLeftovers(_:)``).
    case journalLeftovers([JournalEntry])

    // The desktop.
    case silentMode(Bool)
    case screenLocked(Bool)
    case sleep
    case wake

    // Configuration and time.
    case policiesLoaded(PolicySet)
    /// Time passes: fades step on, windows close.
    case tick
    /// The bridge is stopping: every effect is undone now, and none is applied again.
    case shutdown
}
