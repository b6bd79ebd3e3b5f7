// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// A kind of stream whose first moves the engine decides ahead (DESIGN §3, "Decide ahead"): the first
/// stream of an app under a policy that makes it a call or makes it duck others (a `phone`-role
/// stream of an app no rule names is one, under its role's fallback), or that a call engine's name
/// puts in a call at once, starting to play.
public struct FirstMoveTrigger: Hashable, Sendable {
    /// The policy the stream's app comes under.
    public var policy: String
    /// Whether the stream's name carries a call engine's, for a policy that knows call engines (which
    /// one makes no difference to what it sets off).
    public var byCallEngine: Bool
    /// Whether it plays or records.
    public var direction: Direction
}

/// The first moves decided ahead, and the engine step they were decided after.
struct FirstMoveTable: Sendable {
    var serial: UInt64 = .max
    var moves: [FirstMoveTrigger: [PolicyAction]] = [:]
    /// The trigger kinds of the whole table still to decide, with their policies, the next last.
    var undecided: [(trigger: FirstMoveTrigger, policy: SessionPolicy)] = []
    /// Whether only the paused streams' own trigger kinds were decided
    /// (``PolicyEngine/prepareFirstMoves(forStarting:)``).
    var forPausedStreams = false
    /// Whether every trigger kind was decided.
    var complete: Bool { !forPausedStreams && undecided.isEmpty }
}

extension PolicyEngine {
    /// Decides ahead: what the engine would do first, now, if a stream of each trigger kind started
    /// (``FirstMoveTrigger``). The first moves are the journal entries and the mutes and volumes of the
    /// streams it would touch, in the order of the full step. Call it between steps; the next
    /// ``handle(_:at:)`` makes it stale. With more streams than
    /// ``EngineSettings/maxStreamsDecidedAhead`` it decides nothing. It decides every kind at once; the
    /// shell decides one per loop turn (``prepareNextFirstMoves()``).
    public mutating func prepareFirstMoves() {
        while !prepareNextFirstMoves() {}
    }

    /// Decides one trigger kind of the whole table (one simulated step), and returns whether the whole
    /// table is decided (``firstMovesAreReady``). It starts the table over when the one there is of an
    /// earlier step, and goes on from the paused streams' own kinds when those are of this one
    /// (``prepareFirstMoves(forStarting:)``). The shell decides a kind per loop turn: an event read
    /// meanwhile (a call's stream starting) then waits for one simulated step, not for all of them. A
    /// kind not decided yet is decided in full by the step (``firstMoves(for:)`` is nil).
    @discardableResult
    public mutating func prepareNextFirstMoves() -> Bool {
        if !firstMovesAreCurrent || firstMoveTable.forPausedStreams { firstMoveTable = wholeTableToDecide() }
        guard let next = firstMoveTable.undecided.popLast() else { return true }
        let moves = simulatedFirstMoves(next.trigger, next.policy)
        firstMoveTable.moves[next.trigger] = moves
        return firstMoveTable.complete
    }

    /// A whole table of this step with nothing decided but the paused streams' own kinds, if those are
    /// of this step; empty and complete with more streams than ``EngineSettings/maxStreamsDecidedAhead``.
    private func wholeTableToDecide() -> FirstMoveTable {
        var table = FirstMoveTable(serial: eventSerial)
        guard streams.count <= settings.maxStreamsDecidedAhead else { return table }
        if firstMovesAreCurrent { table.moves = firstMoveTable.moves }
        for policy in policySet.policies where Self.decidesAhead(policy) {
            for trigger in Self.triggers(of: policy) where table.moves[trigger] == nil {
                table.undecided.append((trigger, policy))
            }
        }
        table.undecided.reverse()
        return table
    }

    /// Decides ahead only what the paused streams `ids` would set off if they played now (their
    /// policies' triggers), at the cost of a step or two where the whole table costs one per trigger
    /// kind: they may start with the next event (PipeWire reports every new stream paused, then
    /// playing, a moment later). The table is not complete: it is decided whole once the bridge is quiet.
    public mutating func prepareFirstMoves(forStarting ids: Set<StreamID>) {
        var table = FirstMoveTable(serial: eventSerial, forPausedStreams: true)
        guard streams.count <= settings.maxStreamsDecidedAhead else { return firstMoveTable = table }
        for id in ids.sorted() {
            guard let stream = streams[id], let policy = idleSessionAsMade(of: id)?.policy else { continue }
            let trigger = Self.trigger(stream.info, policy)
            guard table.moves[trigger] == nil, Self.triggers(of: policy).contains(trigger) else { continue }
            table.moves[trigger] = simulatedFirstMoves(trigger, policy)
        }
        firstMoveTable = table
    }

    /// The trigger kinds of a policy that decides ahead. A call may start with its microphone; a
    /// ducker, or a call engine's stream, plays.
    private static func triggers(of policy: SessionPolicy) -> [FirstMoveTrigger] {
        var triggers: [FirstMoveTrigger] = []
        if setsOffMoves(policy) {
            for direction in policy.configuration.isCall ? [Direction.output, .input] : [.output] {
                triggers.append(FirstMoveTrigger(policy: policy.name, byCallEngine: false, direction: direction))
            }
        }
        if !policy.calls.engines.isEmpty {
            triggers.append(FirstMoveTrigger(policy: policy.name, byCallEngine: true, direction: .output))
        }
        return triggers
    }

    /// The trigger kind of a stream under a policy.
    private static func trigger(_ info: StreamInfo, _ policy: SessionPolicy) -> FirstMoveTrigger {
        let byCallEngine = policy.calls.engines.contains { carriesEngine(info, $0) }
        return FirstMoveTrigger(policy: policy.name, byCallEngine: byCallEngine, direction: info.id.direction)
    }

    /// Whether the state is settled enough to decide ahead in: no fade is running, and the server has
    /// reported back every mute and volume the bridge sent to a stream. Until then the next fade step
    /// or report makes a table stale, and deciding it takes a core from the server while the server
    /// carries the bridge's commands out (a hundred mutes on PipeWire come back in bursts, with quiet
    /// spells between them).
    var isSettled: Bool {
        !fadingStreams.contains { streams[$0]?.fade != nil } && !awaitsReports
    }

    /// Whether a mute or volume the bridge sent to a stream that is still there has not been reported
    /// back yet: the server has not shown that it carried the command out.
    public var awaitsReports: Bool { streams.values.contains(where: \.awaitsReport) }

    /// Whether the first moves decided after the last step are only the paused streams' own
    /// (``prepareFirstMoves(forStarting:)``): such a stream may start any moment (every new stream on
    /// PipeWire is reported paused until the graph runs it, up to a quarter of a second later at a
    /// hundred streams), and its start would wait behind the whole table.
    var firstMovesAwaitAStart: Bool { firstMovesAreCurrent && firstMoveTable.forPausedStreams }

    /// Whether the whole table is worth deciding now (``prepareNextFirstMoves()``): the state has
    /// settled (``isSettled``), and no paused stream's own first moves wait for its start
    /// (``firstMovesAwaitAStart``, asked first: the settled state is a walk over every stream, and the
    /// shell asks every 20 ms while a paused stream waits). Deciding the whole table costs a simulated
    /// step for every trigger kind and takes a core from the server; while a paused call waits to
    /// start, its start would come in the middle of it.
    public var isReadyToDecideAhead: Bool { !firstMovesAwaitAStart && isSettled }

    /// Whether the first moves of every trigger kind were decided after the last step.
    public var firstMovesAreReady: Bool { firstMovesAreCurrent && firstMoveTable.complete }

    /// Whether the first moves decided, of every kind or of the paused streams', are of the last step.
    public var firstMovesAreCurrent: Bool { firstMoveTable.serial == eventSerial }

    /// The first moves decided ahead for an event, if it starts a stream of a trigger kind and they
    /// are of the state now (`[]`: it sets off nothing); nil when the engine's full step must decide
    /// alone. The stream starts when it appears playing, or when the stream an app's policy session
    /// was made for plays again after a pause or (a stream whose sound is watched) after silence, the
    /// session inactive, not interrupted and in no call; it must join no session that is there already:
    /// a stream with a token, of an explicit session's process, or of an app whose policy session
    /// exists is decided in full.
    public func firstMoves(for event: PolicyEvent) -> [PolicyAction]? {
        guard firstMovesAreCurrent, !firstMoveTable.moves.isEmpty else { return nil }
        switch event {
        case .streamAppeared(let info):
            guard streams[info.id] == nil, !info.corked, explicitSession(for: info) == nil,
                let policy = policySet.choice(for: info.app, role: info.role)?.policy
            else { return nil }
            if policySessionByApp[PolicySessionKey(policy: policy.name, app: info.app.key)] != nil { return nil }
            if let key = Self.processKey(policy, info.processChain.first), policySessionByApp[key] != nil { return nil }
            return firstMoves(info, policy)
        case .streamChanged(let info):
            guard let old = streams[info.id], old.info.corked, !old.silent, !info.corked, old.info.app == info.app,
                old.info.role == info.role, old.info.token == info.token
            else { return nil }
            return firstMoves(startingIdle: old)
        case .streamSounding(let id):
            // A screen reader's open stream speaks again after silence.
            guard let old = streams[id], old.soundMonitored, old.silent, !old.info.corked else { return nil }
            return firstMoves(startingIdle: old)
        default: return nil
        }
    }

    /// The first moves of a stream that was idle (paused, or silent) and plays now, its session as made.
    private func firstMoves(startingIdle stream: TrackedStream) -> [PolicyAction]? {
        guard let session = idleSessionAsMade(of: stream.info.id) else { return nil }
        // The made-up stream of the table was another app's: what it did to this one does not count
        // (looked for first, so that the table's own list is handed out when there is none).
        guard let moves = firstMoves(stream.info, session.policy) else { return nil }
        return moves.contains { Self.touches($0, stream.info.id) } ? moves.filter { !Self.touches($0, stream.info.id) } : moves
    }

    private func firstMoves(_ info: StreamInfo, _ policy: SessionPolicy) -> [PolicyAction]? {
        firstMoveTable.moves[Self.trigger(info, policy)]
    }

    /// Whether a paused stream may start with first moves: its app's policy session was made for it,
    /// is still as it was made, and its policy is a trigger's. Worth deciding the first moves at once for.
    /// (A silent stream is not: a screen reader's stays open and silent between its words.)
    public func mayStartWithFirstMoves(_ id: StreamID) -> Bool {
        guard streams[id]?.info.corked == true else { return false }
        return idleSessionAsMade(of: id).map { Self.decidesAhead($0.policy) } ?? false
    }

    /// The policy session of an idle stream (paused, or silent), when it was made for that stream and is
    /// inactive, not interrupted and in no call (what the table's made-up new session stands for).
    private func idleSessionAsMade(of id: StreamID) -> Session? {
        guard let stream = streams[id], !stream.isPlaying, let sessionID = stream.session,
            let session = sessions[sessionID], session.kind == .policy, session.streamIDs.count == 1,
            session.streamIDs.contains(id), !session.isActive,
            session.call == nil, session.autoDeactivateAt == nil, session.interrupters.isEmpty, !session.quietAfterCall
        else { return nil }
        return session
    }

    /// Whether two actions are the same first move: the same journal entry, or the same mute or volume
    /// of the same stream, whatever their reasons.
    public static func isSameMove(_ one: PolicyAction, _ other: PolicyAction) -> Bool {
        switch (one, other) {
        case (.setStreamMute(let a, let x, _), .setStreamMute(let b, let y, _)): a == b && x == y
        case (.setStreamVolume(let a, let x, _), .setStreamVolume(let b, let y, _)): a == b && x == y
        case (.journalWrite(let a), .journalWrite(let b)): a == b
        case (.journalClear(let a), .journalClear(let b)): a == b
        default: false
        }
    }

    /// The moves of `actions` that count as first moves: journal entries, mutes and volumes of
    /// streams other than `newStream`.
    public static func firstMoves(in actions: [PolicyAction], besides newStream: StreamID) -> [PolicyAction] {
        actions.filter { action in
            switch action {
            case .setStreamMute, .setStreamVolume, .journalClear, .journalWrite: !touches(action, newStream)
            default: false
            }
        }
    }

    /// Whether a first move is of that stream.
    static func touches(_ move: PolicyAction, _ stream: StreamID) -> Bool {
        switch move {
        case .setStreamMute(let id, _, _), .setStreamVolume(let id, _, _), .journalClear(let id): id == stream
        case .journalWrite(let entry): entry.stream == stream
        default: false
        }
    }

    /// Whether the first moves of a policy's apps are decided ahead: it makes a call or ducks others,
    /// or it knows call engines.
    static func decidesAhead(_ policy: SessionPolicy) -> Bool {
        setsOffMoves(policy) || !policy.calls.engines.isEmpty
    }

    /// Whether a policy's session makes a call or ducks others when it starts, without a call engine.
    static func setsOffMoves(_ policy: SessionPolicy) -> Bool {
        policy.configuration.isCall || policy.configuration.options.contains(.duckOthers)
    }

    /// Whether the stream's app or name carries a call engine's name (what puts its app in a call).
    static func carriesEngine(_ info: StreamInfo, _ engine: String) -> Bool {
        info.app.name.containsASCII(engine, ignoringCase: true)
            || (info.mediaName?.containsASCII(engine, ignoringCase: true) ?? false)
    }

    /// The first moves of a made-up stream of the trigger's kind, on a copy of the engine.
    private func simulatedFirstMoves(_ trigger: FirstMoveTrigger, _ policy: SessionPolicy) -> [PolicyAction] {
        var copy = self
        copy.emitted = []
        let id = StreamID(trigger.direction, .max)
        let device = defaultDeviceName[trigger.direction].flatMap { deviceByName[$0] }
        let info = StreamInfo(id: id, app: AppIdentity(name: "first move of \(policy.name)"), device: device,
                              mediaName: trigger.byCallEngine ? policy.calls.engines.first : nil)
        copy.streamAppeared(info, choice: PolicyChoice(policy: policy, source: .roleFallback, value: "", rule: ""))
        return Self.firstMoves(in: copy.emitted, besides: id)
    }

    /// Puts right the moves the shell sent ahead that the full step did not take: the server gets the
    /// levels the engine has for each stream, the journal its entry, and the engine expects the
    /// server's reports of both.
    mutating func firstMovesNotTaken(_ moves: [PolicyAction]) {
        let why = "decided ahead, not taken by the full step"
        for move in moves {
            switch move {
            case .setStreamMute(let id, let mute, _):
                guard var stream = streams.removeValue(forKey: id) else { continue }
                stream.muteRecord.expected.append(mute)
                stream.bridgeSet.note(mute: mute, user: stream.user.mute)
                if stream.applied.mute != mute { setMute(&stream, stream.applied.mute, why: why) }
                streams[id] = stream
            case .setStreamVolume(let id, let volume, _):
                guard var stream = streams.removeValue(forKey: id) else { continue }
                stream.volumeRecord.expected.append(volume)
                stream.bridgeSet.note(volume: volume, user: stream.user.volume)
                if stream.applied.volume != volume { setVolume(&stream, stream.applied.volume, why: why) }
                streams[id] = stream
            case .journalWrite(let entry):
                let kept = streams[entry.stream]?.journaled
                if kept != entry { emit(kept.map { .journalWrite($0) } ?? .journalClear(entry.stream)) }
            case .journalClear(let id):
                if let kept = streams[id]?.journaled { emit(.journalWrite(kept)) }
            default: continue
            }
        }
    }
}
