// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// Why the bridge mutes a stream.
enum MuteCause: Hashable, Sendable {
    case interruption(SessionID)
    case silentMode
    case screenLock
    /// The app may not record: its input records silence.
    case recordPermissionDenied
    /// The app's explicit session has a category without input (`CannotStartRecording`).
    case categoryWithoutInput
    /// The app's explicit session has a category without output (`CannotStartPlaying`).
    case categoryWithoutOutput
    /// The app's session waits for its turn (`RequestActivation`): it plays nothing until granted.
    case waitingForTurn
}

/// Why the bridge lowers a stream's volume.
enum DuckCause: Hashable, Sendable {
    /// Another session ducks others while it is active.
    case ducker(SessionID)
    /// An interruption whose victim's policy ducks instead of pausing.
    case interruption(SessionID)
}

/// A volume ramp in progress, stepped by ticks.
struct Fade: Hashable, Sendable {
    var from: ChannelVolumes
    var to: ChannelVolumes
    var start: EngineTime
    var duration: Duration
    var nextStep: EngineTime
    /// Mute at the end of the ramp, then set this volume (silently, under the mute).
    var muteThenSet: ChannelVolumes?
    var why: String
}

/// A stream and what the bridge does to it.
struct TrackedStream: Hashable, Sendable {
    var info: StreamInfo
    var session: SessionID?
    /// The levels the user chose: what the bridge restores.
    var user: StreamLevels
    /// The stream's volume and mute against the server's reports: what the bridge asked for, what was
    /// reported, what is awaited (``LevelRecord``).
    var volumeRecord: LevelRecord<ChannelVolumes>
    var muteRecord: LevelRecord<Bool>
    /// The levels the bridge has asked for last (equal to `user` when it has asked for nothing).
    var applied: StreamLevels {
        get { StreamLevels(volume: volumeRecord.applied, mute: muteRecord.applied) }
        set {
            volumeRecord.applied = newValue.volume
            muteRecord.applied = newValue.mute
        }
    }
    /// The last volume and mute the server reported.
    var confirmed: StreamLevels { StreamLevels(volume: volumeRecord.confirmed, mute: muteRecord.confirmed) }
    /// Causes the bridge lifted when a level was reported from a query sent after commands still in
    /// flight, whose order against those commands only a later report can tell
    /// (``LevelRecord/inFlightAtOverride``): put back if one of the commands is reported after it.
    var liftedAtOverride = LiftedCauses()

    struct LiftedCauses: Hashable, Sendable {
        var mutes: Set<MuteCause> = []
        var ducks: [DuckCause: Double] = [:]
    }
    var fade: Fade?
    var muteCauses: Set<MuteCause> = []
    var duckCauses: [DuckCause: Double] = [:]
    /// Causes the user overrode by changing the stream's levels: they stay off until they end.
    var overriddenMutes: Set<MuteCause> = []
    var overriddenDucks: Set<DuckCause> = []
    /// Whether the bridge ever changed the stream (the server may remember what it saw).
    var touched = false
    /// The entry last written to the journal, if any.
    var journaled: JournalEntry?
    /// The stream's device went away; the server will move it.
    var deviceLost = false
    /// A move the bridge asked for and the server has not reported yet, with why.
    var expectedMove: ExpectedMove?
    /// The levels the bridge set on this stream that were not the user's: what the server may remember
    /// of it for the app's next stream.
    var bridgeSet = BridgeSetLevels()
    /// For a short window after the stream appeared, what the bridge had set on the app's earlier
    /// stream: such a level that the bridge did not ask for is the server's memory, not anyone's choice
    /// (``PolicyEngine/absorbServerMemory(_:_:)``).
    var serverMemory: ServerMemoryWindow?

    struct ServerMemoryWindow: Hashable, Sendable {
        var until: EngineTime
        var bridgeSet: BridgeSetLevels
    }

    struct ExpectedMove: Hashable, Sendable {
        var device: DeviceID
        var cause: RouteCause
    }

    /// Where the stream is, or is about to be after the bridge's own move.
    var effectiveDevice: DeviceID? { expectedMove?.device ?? info.device }

    /// The stream was announced before its levels (pipewire-pulse's first report of a new stream says
    /// volume 0): the bridge sends it no command until a report carries them, which it takes as the
    /// user's (``takeFirstKnownLevels(_:)``). Everything else about the stream counts at once.
    var levelsUnknown = false

    init(info: StreamInfo, session: SessionID?) {
        self.info = info
        self.session = session
        user = info.levels
        volumeRecord = LevelRecord(info.levels.volume)
        muteRecord = LevelRecord(info.levels.mute)
        levelsUnknown = info.levelsNotYetKnown
    }

    /// The first report that carries the stream's levels: they are the user's, as if the stream had
    /// just appeared with them.
    mutating func takeFirstKnownLevels(_ levels: StreamLevels) {
        user = levels
        volumeRecord = LevelRecord(levels.volume)
        muteRecord = LevelRecord(levels.mute)
        levelsUnknown = false
    }

    /// Whether the bridge watches the stream's sound (its policy ends effects after silence), and
    /// whether it has been silent for the policy's time (DESIGN §2, "Sound, not presence").
    var soundMonitored = false
    var silent = false

    /// What holds the stream muted or ducked, as the event log names it, in a stable order.
    var effectCauses: [EffectCause] {
        var causes: [EffectCause] = muteCauses.map {
            switch $0 {
            case .interruption(let id): .interruption(id)
            case .silentMode: .silentMode
            case .screenLock: .screenLock
            case .recordPermissionDenied, .categoryWithoutInput, .categoryWithoutOutput: .refusal
            case .waitingForTurn: .waitingForTurn
            }
        }
        causes += duckCauses.keys.map {
            switch $0 {
            case .ducker(let id): .ducker(id)
            case .interruption(let id): .interruption(id)
            }
        }
        return Array(Set(causes)).sorted { $0.logName < $1.logName }
    }

    /// Running and, for a stream whose sound is watched, carrying sound.
    var isPlaying: Bool { !info.corked && !silent }

    /// The levels the causes in force ask for.
    var target: StreamLevels {
        let factor = duckCauses.values.min() ?? 1
        return StreamLevels(volume: factor < 1 ? user.volume.scaled(by: factor) : user.volume,
                            mute: user.mute || !muteCauses.isEmpty)
    }

    /// Whether the bridge has the stream at other levels than the user's, or is moving it.
    var hasEffectInForce: Bool { applied != user || fade != nil }

    /// Whether a mute or volume the bridge sent is still to be reported back by the server.
    var awaitsReport: Bool { muteRecord.awaitsReport || volumeRecord.awaitsReport }
}
