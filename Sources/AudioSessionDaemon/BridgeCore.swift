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
    /// The engine, as the last step left it.
    public var engine: PolicyEngine { schedule.engine }
    private var eventObservers: [(PolicyEvent) -> Void] = []
    private var journalWriters: [(PolicyAction) -> Void] = []
    private var actionObservers: [(PolicyAction) -> Void] = []
    private var settledObservers: [(PolicyEvent) -> Void] = []
    private lazy var tickTimer = PulseTimer(loop: loop) { [unowned self] in self.send(.tick) }
    /// The peak monitors of the streams whose sound the engine watches.
    lazy var soundWatch = SoundWatch(loop: loop, adapter: adapter) { [unowned self] event in self.send(event) }

    /// A core for `server`; `sharedMemoryDelay` as ``ServerAdapter/init(loop:server:sharedMemoryDelay:)``
    /// has it.
    public init(loop: PulseLoop, server: String?, engine: PolicyEngine = PolicyEngine(),
                sharedMemoryDelay: Duration? = ServerAdapter.sharedMemoryDelay) {
        self.loop = loop
        schedule = StepSchedule(engine: engine)
        adapter = ServerAdapter(loop: loop, server: server, sharedMemoryDelay: sharedMemoryDelay)
        adapter.onEvent = { [unowned self] event in self.send(event) }
        adapter.onLevelCommandsSettled = { [unowned self] in self.noteLevelCommands() }
    }

    /// Sees every event as the engine steps it, before any of the step's actions is carried out.
    public func observeEvents(_ observer: @escaping (PolicyEvent) -> Void) { eventObservers.append(observer) }
    /// Writes the journal: sees every journal action (``PolicyAction/isJournal``) before the server
    /// commands that follow it leave, and before the action observers see it.
    public func writeJournal(_ writer: @escaping (PolicyAction) -> Void) { journalWriters.append(writer) }
    /// Sees every action the engine returns, after the server's share was executed.
    public func observeActions(_ observer: @escaping (PolicyAction) -> Void) { actionObservers.append(observer) }
    /// Runs after each event and all its actions (for property changes).
    public func observeSettled(_ observer: @escaping (PolicyEvent) -> Void) { settledObservers.append(observer) }

    /// The sessions the engine wrote since the last call; on the loop thread.
    public func takeTouchedSessions() -> Set<SessionID> { schedule.takeTouchedSessions() }

    /// Connects to the server; on the loop thread.
    public func start() { adapter.start() }

    /// Disconnects; on the loop thread.
    public func stop() {
        releaseHeldActions()
        releaseTimer.cancelForever()
        scheduleTimer.cancelForever()
        tickTimer.cancelForever()
        adapter.stop()
    }

    /// How long bookkeeping (event-log records, property changes) waits after an engine step, so that
    /// the step's server commands leave first: libpulse writes them once its socket is reported
    /// writable, a poll turn later, and a timer already due would run before that turn.
    public static let bookkeepingDelay: Duration = .milliseconds(1)

    /// The time on the monotonic clock, as the engine counts it.
    public static func now() -> EngineTime {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return EngineTime(nanoseconds: UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec))
    }

    /// When each event is stepped, and when the engine decides ahead; the engine lives in it.
    private var schedule: StepSchedule
    private var handling = false
    /// The bus's share of the steps whose server commands have not left yet, in order.
    private var heldActions: [PolicyAction] = []
    /// Fires once libpulse has had its turn to send the commands: pa_mainloop runs deferred work (the
    /// stream's writes) before due timers.
    private lazy var releaseTimer = PulseTimer(loop: loop) { [unowned self] in self.releaseHeldActions() }
    /// First moves sent ahead that the observers have not heard of yet: they hear on the loop's next
    /// turn (``releaseTimer``), as with the bus's share of a step, or before the next step if that
    /// comes first.
    private var untoldFirstMoves: [PolicyAction] = []
    /// Fires at the schedule's next deadline (``StepSchedule/nextDeadline``).
    private lazy var scheduleTimer = PulseTimer(loop: loop) { [unowned self] in
        self.schedule.wake(at: Self.now())
        self.handleQueued()
    }

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
    /// The schedule (``StepSchedule``) says when each event is stepped: a stream that starts with
    /// first moves decided ahead has them sent at once, journal first, and its step waits for their
    /// head start; so do the adapter's questions about changed objects
    /// (``ServerAdapter/holdsChangeQueries``), which the server would otherwise answer while it carries
    /// out the moves and announces them.
    public func send(_ event: PolicyEvent) {
        schedule.receive(event)
        handleQueued()
    }

    private func handleQueued() {
        guard !handling else { return }
        handling = true
        defer { handling = false }
        var holding = schedule.holdsForFirstMoves
        while let work = schedule.next(at: Self.now()) {
            switch work {
            case .sendAhead(let moves): sendAhead(moves)
            case .stepped(let event, let actions):
                // The step of the stream whose first moves were sent ahead ends their hold.
                if holding && !schedule.holdsForFirstMoves { adapter.holdsChangeQueries = false }
                carryOut(step: event, actions)
            }
            holding = schedule.holdsForFirstMoves
        }
        if let deadline = schedule.nextDeadline { scheduleTimer.arm(after: deadline.since(Self.now())) } else { scheduleTimer.disarm() }
    }

    /// Sends a starting stream's first moves, journal entries first as the engine ordered them; the
    /// observers hear of them after (``untoldFirstMoves``).
    private func sendAhead(_ moves: [PolicyAction]) {
        moves.forEach(carryOutEffect)
        noteLevelCommands()
        untoldFirstMoves = moves
        releaseTimer.arm(after: .zero)
        adapter.holdsChangeQueries = true
    }

    /// The observers hear of the first moves sent ahead, if they have not yet.
    private func tellFirstMoves() {
        let moves = untoldFirstMoves
        untoldFirstMoves = []
        moves.forEach(tellObservers)
    }

    /// Carries out a step's actions: the journal and server commands at once, the rest held for the
    /// loop's next turn when commands left.
    private func carryOut(step event: PolicyEvent, _ actions: [PolicyAction]) {
        tellFirstMoves()
        for observer in eventObservers { observer(event) }
        if case .serverLost = event { soundWatch.forgetAll() }
        var commandsSent = false
        for action in actions {
            switch action {
            case .scheduleTick(let at): tickTimer.arm(after: at.since(Self.now()))
            case _ where action.isJournal || action.isServerCommand:
                commandsSent = commandsSent || action.isServerCommand
                carryOut(action)
            default: heldActions.append(action)
            }
        }
        // While a fade is under way, its next step waits until the server is done with the commands
        // before it: on PulseAudio, until a marker behind them is announced (DECISIONS 128). The first
        // moves sent ahead get theirs here, at their step, before any tick of the fade.
        let marked = schedule.engine.fadesUnderWay && adapter.markLevelCommands()
        if commandsSent || marked { noteLevelCommands() }
        if commandsSent {
            releaseTimer.arm(after: .zero)
        } else if !releaseTimer.isArmed {
            releaseHeldActions()
        }
        for observer in settledObservers { observer(event) }
    }

    /// Tells the engine whether the server is done with every mute and volume sent (answered, and on
    /// PulseAudio announced): a fade's next step waits for it (``PolicyEngine/stepFades()``), and gets
    /// its tick once it is.
    private func noteLevelCommands() {
        if schedule.levelCommands(unanswered: adapter.awaitsLevelCommands) { send(.tick) }
    }
}
