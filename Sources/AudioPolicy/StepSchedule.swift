// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// When the shell hands each event to the engine, and when the engine decides first moves ahead
/// (DESIGN §3, *Deciding ahead*), as a state machine with no clock of its own: events and the time go
/// in; the work to carry out and the next deadline come out. The shell reads the clock, carries out the
/// work, and arms one timer for ``nextDeadline``; a test turns a manual clock.
///
/// - A stream that starts with first moves decided ahead (``PolicyEngine/firstMoves(for:)``) has them
///   sent at once (``Work/sendAhead(_:)``). Its full step, and every event queued behind it but the
///   bridge's stop, waits ``Timing/headStartOfFirstMoves``; the step runs as of the stream's arrival, so
///   the fade it started keeps its pace, and what the step does again is not sent twice.
/// - Once quiet for ``Timing/quietBeforeDecidingAhead`` and ready (``PolicyEngine/isReadyToDecideAhead``),
///   or quiet for ``Timing/longestWaitToSettle``, the engine decides the first moves again, one trigger
///   kind per wake (``wake(at:)``), so that events read meanwhile wait for one simulated step at most.
/// - While a paused stream may start with first moves, its own are decided after every step.
public struct StepSchedule: Sendable {
    /// The durations of the schedule, each with its reason (DESIGN §3's table).
    public struct Timing: Hashable, Sendable {
        /// How long a stream that started with first moves waits for its full step, and every event after it
        /// with it: the time the server takes to carry out the moves at ten streams and announce them. Run
        /// at once, the step and its bookkeeping took the processor from the server and from those who hear
        /// the change.
        public var headStartOfFirstMoves: Duration = .milliseconds(3)
        /// How long the bridge waits after its last step before it decides the first moves again: deciding
        /// costs some ten simulated steps, which a burst of events (a fade's steps and their reports, a user
        /// dragging a slider) would pay on every event, while a call comes to a bridge that has been quiet.
        public var quietBeforeDecidingAhead: Duration = .milliseconds(20)
        /// How long the bridge, quiet, waits at most to be ready to decide the whole table before it decides
        /// anyway: a report that never matches what the bridge sent, or a stream an app keeps paused, must
        /// not keep it from deciding ahead for good.
        public var longestWaitToSettle: Duration = .milliseconds(500)

        public init() {}
    }

    /// What the shell carries out, in the order ``next(at:)`` gives it.
    public enum Work: Sendable {
        /// A starting stream's first moves (journal entries and server commands): they leave at once, and
        /// the observers may hear of them later, before the stream's step.
        case sendAhead([PolicyAction])
        /// The engine's step of an event and its actions, but those already sent ahead.
        case stepped(PolicyEvent, [PolicyAction])
    }

    /// The engine the schedule steps.
    public private(set) var engine: PolicyEngine
    /// The schedule's durations.
    public let timing: Timing
    /// Events received and not yet stepped, in order.
    private var queued: [PolicyEvent] = []
    /// The first moves sent ahead of a starting stream's step, and when, until that step runs.
    private var sentAhead: (stream: StreamID, moves: [PolicyAction], at: EngineTime)?
    /// Whether the bridge's stop cut the head start of the moves sent ahead short.
    private var headStartCut = false
    /// When to look again at deciding ahead; set once per quiet period, not moved by every step.
    private var decideAheadAt: EngineTime?
    /// When the last step ran.
    private var lastStepAt = EngineTime.zero
    /// Paused streams that may start with first moves (``PolicyEngine/mayStartWithFirstMoves(_:)``).
    private var pausedTriggers: Set<StreamID> = []

    /// A schedule that steps `engine`.
    public init(engine: PolicyEngine, timing: Timing = Timing()) {
        self.engine = engine
        self.timing = timing
    }

    /// When ``wake(at:)`` or ``next(at:)`` has work that time alone makes due; nil when only an event can.
    public var nextDeadline: EngineTime? {
        [headStartEnds, decideAheadAt].compactMap { $0 }.min()
    }

    /// When the head start of the moves sent ahead ends, while one runs.
    private var headStartEnds: EngineTime? {
        guard let sent = sentAhead, !headStartCut else { return nil }
        return sent.at + timing.headStartOfFirstMoves
    }

    /// Whether a starting stream's first moves are out and its step is still to come: the shell holds
    /// its questions about changed objects meanwhile (the server would answer while it carries them out).
    public var holdsForFirstMoves: Bool { sentAhead != nil }

    /// Queues an event. The bridge's stop cuts a head start short: it undoes the moves at once.
    public mutating func receive(_ event: PolicyEvent) {
        queued.append(event)
        if case .shutdown = event { headStartCut = true }
    }

    /// The next work due at `now`: first moves to send ahead, or the step of the first queued event;
    /// nil when the queue is empty or waits for a head start to end.
    public mutating func next(at now: EngineTime) -> Work? {
        guard let event = queued.first else { return nil }
        if sentAhead == nil, let stream = Self.startingStream(event), let moves = engine.firstMoves(for: event), !moves.isEmpty {
            (sentAhead, headStartCut) = ((stream, moves, now), false)
            return .sendAhead(moves)
        }
        if let ends = headStartEnds, now < ends { return nil }
        queued.removeFirst()
        var ahead: [PolicyAction] = []
        var stepTime = now
        if let sent = sentAhead {
            // The step runs as of the stream's arrival, so that the fade it started keeps its pace.
            if Self.startingStream(event) == sent.stream { (ahead, stepTime) = (sent.moves, sent.at) }
            sentAhead = nil
        }
        var actions: [PolicyAction] = []
        for action in engine.handle(event, at: stepTime) {
            if action.isJournal || action.isServerCommand, let index = ahead.firstIndex(where: { PolicyEngine.isSameMove($0, action) }) {
                ahead.remove(at: index)  // sent ahead already
                continue
            }
            actions.append(action)
        }
        // What the step did not take is put right by the engine.
        if !ahead.isEmpty { queued.append(.firstMovesNotTaken(ahead)) }
        followPausedTriggers(after: event)
        lastStepAt = now
        if decideAheadAt == nil { decideAheadAt = now + timing.quietBeforeDecidingAhead }
        return .stepped(event, actions)
    }

    /// Does what time made due at `now`: one trigger kind of deciding ahead, once the bridge has been
    /// quiet long enough and is ready, or has waited ``Timing/longestWaitToSettle``.
    public mutating func wake(at now: EngineTime) {
        guard let due = decideAheadAt, now >= due else { return }
        decideAheadAt = nil
        let quietFor = now.since(lastStepAt)
        guard quietFor >= timing.quietBeforeDecidingAhead else {
            decideAheadAt = lastStepAt + timing.quietBeforeDecidingAhead
            return
        }
        guard !engine.firstMovesAreReady else { return }
        guard engine.isReadyToDecideAhead || quietFor >= timing.longestWaitToSettle else {
            decideAheadAt = now + timing.quietBeforeDecidingAhead
            return
        }
        // One trigger kind per wake: an event read meanwhile waits for one simulated step.
        if !engine.prepareNextFirstMoves() { decideAheadAt = now }
    }

    /// While a paused stream may start with first moves (every new stream on PipeWire is reported
    /// paused, then playing, maybe in the same read), its own are decided after every step, not only
    /// once the bridge is quiet: the stream may start with the next event. Only its own: the whole
    /// table costs a simulated step for every trigger kind of the loaded policies, and an event that
    /// starts the stream, read behind this one, would wait for all of them.
    private mutating func followPausedTriggers(after event: PolicyEvent) {
        if let id = Self.startingStream(event), engine.mayStartWithFirstMoves(id) { pausedTriggers.insert(id) }
        guard !pausedTriggers.isEmpty else { return }
        // Any step may have started, ended or changed one of them (its session activated by another).
        pausedTriggers = pausedTriggers.filter { engine.mayStartWithFirstMoves($0) }
        if !pausedTriggers.isEmpty && !engine.firstMovesAreCurrent { engine.prepareFirstMoves(forStarting: pausedTriggers) }
    }

    /// The stream an event may start.
    static func startingStream(_ event: PolicyEvent) -> StreamID? {
        switch event {
        case .streamAppeared(let info), .streamChanged(let info): info.id
        case .streamSounding(let id): id
        default: nil
        }
    }
}

extension StepSchedule {
    /// The sessions the engine wrote since the last call (``PolicyEngine/takeTouchedSessions()``).
    public mutating func takeTouchedSessions() -> Set<SessionID> { engine.takeTouchedSessions() }
}

extension StepSchedule {
    /// Tells the engine whether the server has yet to answer a mute or volume the bridge sent
    /// (``PolicyEngine/levelCommandsUnanswered``). Returns whether a fade's step waited for the answers
    /// that are now in: the shell then hands the engine a tick.
    public mutating func levelCommands(unanswered: Bool) -> Bool {
        engine.levelCommandsUnanswered = unanswered
        return !unanswered && engine.fadeStepOverdue
    }
}
