// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionModel
import Glibc
import PulseAudioClient

/// The heart of the shell: the engine, the server adapter and the engine's timer on one loop.
/// Events from the server (and, later, the bus and the desktop) go into the engine; the engine's
/// actions go out to the server and to whoever observes them. Use it on the loop thread.
public final class BridgeCore: @unchecked Sendable {
    /// The bridge's version, as the manager's `Version` property reports it.
    public static let version = "0.1.0"

    public let loop: PulseLoop
    public let adapter: ServerAdapter
    public private(set) var engine: PolicyEngine
    private var eventObservers: [(PolicyEvent) -> Void] = []
    private var journalWriters: [(PolicyAction) -> Void] = []
    private var actionObservers: [(PolicyAction) -> Void] = []
    private var settledObservers: [(PolicyEvent) -> Void] = []
    private lazy var tickTimer = PulseTimer(loop: loop) { [unowned self] in self.send(.tick) }
    /// The peak monitors of the streams whose sound the engine watches.
    lazy var soundWatch = SoundWatch(loop: loop, adapter: adapter) { [unowned self] event in self.send(event) }

    /// A core for `server`; `sharedMemory` and `sharedMemoryDelay` as
    /// ``ServerAdapter/init(loop:server:sharedMemory:sharedMemoryDelay:)`` has them.
    public init(loop: PulseLoop, server: String?, engine: PolicyEngine = PolicyEngine(), sharedMemory: Bool = true,
                sharedMemoryDelay: Duration = ServerAdapter.sharedMemoryDelay) {
        self.loop = loop
        self.engine = engine
        adapter = ServerAdapter(loop: loop, server: server, sharedMemory: sharedMemory, sharedMemoryDelay: sharedMemoryDelay)
        adapter.onEvent = { [unowned self] event in self.send(event) }
    }

    /// Sees every event before the engine handles it.
    public func observeEvents(_ observer: @escaping (PolicyEvent) -> Void) { eventObservers.append(observer) }
    /// Writes the journal: sees every journal action (``PolicyAction/isJournal``) before the server
    /// commands that follow it leave, and before the action observers see it.
    public func writeJournal(_ writer: @escaping (PolicyAction) -> Void) { journalWriters.append(writer) }
    /// Sees every action the engine returns, after the server's share was executed.
    public func observeActions(_ observer: @escaping (PolicyAction) -> Void) { actionObservers.append(observer) }
    /// Runs after each event and all its actions (for property changes).
    public func observeSettled(_ observer: @escaping (PolicyEvent) -> Void) { settledObservers.append(observer) }

    /// The sessions the engine wrote since the last call; on the loop thread.
    public func takeTouchedSessions() -> Set<SessionID> { engine.takeTouchedSessions() }

    /// Connects to the server; on the loop thread.
    public func start() { adapter.start() }

    /// Disconnects; on the loop thread.
    public func stop() {
        releaseHeldActions()
        releaseTimer.cancelForever()
        aheadStepTimer.cancelForever()
        firstMovesTimer.cancelForever()
        tickTimer.cancelForever()
        adapter.stop()
    }

    /// How long bookkeeping (event-log records, property changes) waits after an engine step, so that
    /// the step's server commands leave first: libpulse writes them once its socket is reported
    /// writable, a poll turn later, and a timer already due would run before that turn.
    public static let bookkeepingDelay: Duration = .milliseconds(1)

    /// How long a stream that started with first moves waits for its full step, and every event after it
    /// with it: the time the server takes to carry out the moves at ten streams and announce them. Run
    /// at once, the step and its bookkeeping took the processor from the server and from those who hear
    /// the change (on two cores, some 100 µs on each call, a tenth of it at one stream).
    public static let headStartOfFirstMoves: Duration = .milliseconds(3)

    /// How long the bridge waits after its last event before it decides the first moves again: deciding
    /// costs some ten engine steps (a made-up stream of each trigger kind on a copy of the engine), which
    /// a burst of events (a fade's steps and their reports, a user dragging a slider) would pay on every
    /// event, while a call comes to a bridge that has been quiet.
    public static let quietBeforeDecidingAhead: Duration = .milliseconds(20)

    /// How long the bridge, quiet, waits at most to be ready to decide the whole table
    /// (``PolicyEngine/isReadyToDecideAhead``: its fades over, its commands reported back, no paused
    /// stream waiting to start with its own first moves) before it decides anyway: a report that never
    /// matches what the bridge sent, or a stream an app keeps paused, must not keep it from deciding
    /// ahead for good.
    public static let longestWaitToSettle: Duration = .milliseconds(500)

    /// The time on the monotonic clock, as the engine counts it.
    public static func now() -> EngineTime {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return EngineTime(nanoseconds: UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec))
    }

    private var queued: [PolicyEvent] = []
    private var handling = false
    /// The bus's share of the steps whose server commands have not left yet, in order.
    private var heldActions: [PolicyAction] = []
    /// Fires once libpulse has had its turn to send the commands: pa_mainloop runs deferred work (the
    /// stream's writes) before due timers.
    private lazy var releaseTimer = PulseTimer(loop: loop) { [unowned self] in self.releaseHeldActions() }
    /// Whether the observers are still to hear of the first moves sent ahead (``sentAhead``): they hear
    /// on the loop's next turn (``releaseTimer``), as with the bus's share of a step, or before the
    /// stream's step if that comes first.
    private var firstMovesUntold = false
    /// The first moves sent ahead of a new stream's step, and when, until that step runs.
    private var sentAhead: (stream: StreamID, moves: [PolicyAction], at: EngineTime)?
    /// Runs a new stream's step, and the events held behind it, ``headStartOfFirstMoves`` after the
    /// first moves sent ahead of it.
    private lazy var aheadStepTimer = PulseTimer(loop: loop) { [unowned self] in self.handleQueued() }
    /// Decides the first moves again once the bridge has been quiet for ``quietBeforeDecidingAhead``
    /// since ``lastStepAt`` and is ready to (``PolicyEngine/isReadyToDecideAhead``), or has waited
    /// ``longestWaitToSettle``: armed once per quiet period, not restarted on every event. It decides a
    /// trigger kind per loop turn (``PolicyEngine/prepareNextFirstMoves()``), so that the server's
    /// reports and a call's start are read between them; a step in between starts the table over.
    private lazy var firstMovesTimer: PulseTimer = PulseTimer(loop: loop) { [unowned self] in
        let quietFor = Self.now().since(self.lastStepAt)
        guard quietFor >= Self.quietBeforeDecidingAhead else {
            return self.firstMovesTimer.arm(after: Self.quietBeforeDecidingAhead - quietFor)
        }
        guard !self.engine.firstMovesAreReady else { return }
        guard self.engine.isReadyToDecideAhead || quietFor >= Self.longestWaitToSettle else {
            return self.firstMovesTimer.arm(after: Self.quietBeforeDecidingAhead)
        }
        // One trigger kind per loop turn: an event read meanwhile waits for one simulated step.
        if !self.engine.prepareNextFirstMoves() { self.firstMovesTimer.arm(after: .zero) }
    }
    /// When the last burst of steps ended.
    private var lastStepAt = EngineTime.zero

    /// Tells the observers of the first moves sent ahead, then carries out the held actions: replies
    /// first (a caller waits on each), then the rest in order.
    private func releaseHeldActions() {
        tellFirstMoves()
        let actions = heldActions
        heldActions = []
        actions.filter(\.isReply).forEach(carryOut)
        actions.filter { !$0.isReply }.forEach(carryOut)
    }

    private func carryOut(_ action: PolicyAction) {
        carryOutEffect(action)
        tellObservers(action)
    }

    /// The share of an action that reaches the journal or the server.
    private func carryOutEffect(_ action: PolicyAction) {
        if action.isJournal { for writer in journalWriters { writer(action) } }
        adapter.execute(action)
    }

    /// The rest: the peak monitors and the action observers (records, the bus).
    private func tellObservers(_ action: PolicyAction) {
        soundWatch.perform(action)
        for observer in actionObservers { observer(action) }
    }

    /// Hands one event to the engine and carries out its actions; on the loop thread. An event that
    /// arrives while another is being handled (a command that fails at once) waits its turn. The
    /// journal and the server commands go first, in the engine's order; the bus's share (replies,
    /// signals) is held until libpulse has sent those commands, on the loop's next turns: the ear hears
    /// the commands, libdbus would write at once, and a signal is cheap to send a moment later.
    ///
    /// A stream that starts with first moves the engine decided ahead (``PolicyEngine/firstMoves(for:)``)
    /// has them sent at once, journal first; its full step, and every event that comes meanwhile but the
    /// bridge's stop, waits ``headStartOfFirstMoves``; so do the adapter's questions about changed
    /// objects (``ServerAdapter/holdsChangeQueries``), which the server would otherwise answer while it
    /// carries out the moves and announces them. What the step does again is not sent twice, and what it
    /// does not take is put right.
    public func send(_ event: PolicyEvent) {
        queued.append(event)
        // Events wait while the first moves sent ahead have their head start; the bridge's stop does not.
        if sentAhead != nil {
            guard case .shutdown = event else { return }
            aheadStepTimer.disarm()
        }
        handleQueued()
    }

    private func handleQueued() {
        guard !handling else { return }
        handling = true
        defer { handling = false }
        while let next = queued.first {
            // The event stays queued behind its first moves until its step runs.
            if sendFirstMoves(of: next) {
                aheadStepTimer.arm(after: Self.headStartOfFirstMoves)
                return
            }
            queued.removeFirst()
            step(next)
            followPausedTriggers(after: next)
        }
        lastStepAt = Self.now()
        firstMovesTimer.armIfIdle(after: Self.quietBeforeDecidingAhead)
    }

    /// Paused streams that may start with first moves (``PolicyEngine/mayStartWithFirstMoves(_:)``).
    private var pausedTriggers: Set<StreamID> = []

    /// While a paused stream may start with first moves (every new stream on PipeWire is reported
    /// paused, then playing, maybe in the same read), its own are decided after every step, not only
    /// once the bridge is quiet: the stream may start with the next event. Only its own: the whole
    /// table costs a simulated step for every trigger kind of the loaded policies (about ten shipped),
    /// and an event that starts the stream, read behind this one, would wait for all of them.
    private func followPausedTriggers(after event: PolicyEvent) {
        if let id = Self.startingStream(event), engine.mayStartWithFirstMoves(id) { pausedTriggers.insert(id) }
        guard !pausedTriggers.isEmpty else { return }
        // Any step may have started, ended or changed one of them (its session activated by another).
        pausedTriggers = pausedTriggers.filter { engine.mayStartWithFirstMoves($0) }
        if !pausedTriggers.isEmpty && !engine.firstMovesAreCurrent { engine.prepareFirstMoves(forStarting: pausedTriggers) }
    }

    /// Sends the first moves decided ahead for a stream that starts, if there are any; true when it did.
    /// Their journal entries and commands leave first, all of them; the observers hear of them after
    /// (``firstMovesUntold``).
    private func sendFirstMoves(of event: PolicyEvent) -> Bool {
        guard sentAhead == nil, let stream = Self.startingStream(event), let moves = engine.firstMoves(for: event),
            !moves.isEmpty
        else { return false }
        let now = Self.now()
        moves.forEach(carryOutEffect)
        sentAhead = (stream, moves, now)
        firstMovesUntold = true
        releaseTimer.arm(after: .zero)
        adapter.holdsChangeQueries = true
        return true
    }

    /// The observers hear of the first moves sent ahead, if they have not yet.
    private func tellFirstMoves() {
        guard firstMovesUntold, let moves = sentAhead?.moves else { return }
        firstMovesUntold = false
        moves.forEach(tellObservers)
    }

    /// The stream an event may start.
    private static func startingStream(_ event: PolicyEvent) -> StreamID? {
        switch event {
        case .streamAppeared(let info), .streamChanged(let info): info.id
        case .streamSounding(let id): id
        default: nil
        }
    }

    private func step(_ event: PolicyEvent) {
        tellFirstMoves()
        for observer in eventObservers { observer(event) }
        if case .serverLost = event { soundWatch.forgetAll() }
        var ahead: [PolicyAction] = []
        var now = Self.now()
        if let sent = sentAhead, Self.startingStream(event) == sent.stream {
            // The event is handled as of its arrival, so the fade it started keeps its pace.
            (ahead, now) = (sent.moves, sent.at)
            sentAhead = nil
            adapter.holdsChangeQueries = false
        }
        var commandsSent = false
        for action in engine.handle(event, at: now) {
            switch action {
            case .scheduleTick(let at): tickTimer.arm(after: at.since(Self.now()))
            case _ where action.isJournal || action.isServerCommand:
                if let index = ahead.firstIndex(where: { PolicyEngine.isSameMove($0, action) }) {
                    ahead.remove(at: index)  // sent ahead already
                    continue
                }
                commandsSent = commandsSent || action.isServerCommand
                carryOut(action)
                continue
            default: break
            }
            heldActions.append(action)
        }
        if !ahead.isEmpty { queued.append(.firstMovesNotTaken(ahead)) }
        if commandsSent { releaseTimer.arm(after: .zero) } else if !releaseTimer.isArmed { releaseHeldActions() }
        for observer in settledObservers { observer(event) }
    }
}
