// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionModel
import FoundationEssentials
import PulseAudioClient

/// The bridge's eyes and hands on the sound server. It keeps a ``ServerCache``, turns subscription
/// events into engine events, executes the engine's server commands and reports their failures, and
/// reconnects with back-off when the server goes away (a dead context is discarded, never reused).
/// Everything runs on the loop thread.
public final class ServerAdapter: @unchecked Sendable {
    public let loop: PulseLoop
    /// The server address (`unix:/path`), or nil for libpulse's default.
    public let server: String?
    /// The server's objects as last seen.
    public internal(set) var cache = ServerCache()
    /// Receives engine events, on the loop thread.
    public var onEvent: (PolicyEvent) -> Void = { _ in }
    /// Whether a context is connected and read.
    public internal(set) var isConnected = false
    /// Runs each time the server has been read completely (after connecting and after every reconnection).
    public var onReady: () -> Void = {}

    /// The server connection (nil while there is none); its commands are in `ServerAdapter+Commands`.
    var context: PulseContext?
    /// The actions behind the level commands in flight on ``context``.
    var commandLedger = CommandLedger(capacity: 0)
    /// The ledger of the connection the current one took over from, while it delivers its last answers.
    var retiringLedger: CommandLedger?
    /// Runs when the server is done with every mute and volume the bridge sent (answered, and on
    /// PulseAudio announced), or the connection that was to answer them is gone (``awaitsLevelCommands``).
    public var onLevelCommandsSettled: () -> Void = {}
    /// How long a server must stay up before a connection with shared memory takes over; nil: the
    /// bridge's connection never takes up the server's shared memory (see `ServerAdapter+SharedMemory`).
    let sharedMemoryDelay: Duration?
    /// The connection with shared memory being made to take over from one without, and the connection
    /// it took over from until that one's last answers are in (see `ServerAdapter+SharedMemory`).
    var upgrading: PulseContext?
    var retiring: PulseContext?
    lazy var upgradeTimer = PulseTimer(loop: loop) { [unowned self] in self.beginSharedMemoryUpgrade() }

    /// The connected context, for one-off commands of the shell (nil while disconnected).
    public var currentContext: PulseContext? { isConnected ? context : nil }
    private lazy var reconnectTimer = PulseTimer(loop: loop) { [unowned self] in self.connect() }
    private var backoff = ServerAdapter.firstBackoff
    /// Whether the server accepted the connection being made (it got past connecting): a server that
    /// accepts and then fails is backed off from; one that is not there is waited for on its socket.
    private var accepted = false
    /// Quick retries left after the socket was made: a server binds its socket a moment before it
    /// listens on it, and a connection in between is refused.
    private var quickRetries = 0
    /// The server's socket, watched (from start to stop) so that a server back is connected to at once.
    private var socketWatch: ServerSocketWatch?
    private var lostAnnounced = false
    private var stopped = false
    /// Orders queries and removals so that a late answer never resurrects a removed object.
    var order = QueryOrder()
    /// Change events that need a query, gathered over a loop turn and asked for at its end (a burst of
    /// changes to one object once). A new object is asked for at once (a stream an app just started
    /// matters most), and the changes that come while its answer is out wait for it (a client's
    /// excepted): a new stream comes with a change event for every other stream on its sink.
    var pendingQueries: [PulseChange] = []
    var heldChanges: [PulseChange] = []
    /// Whether a change of that object waits to be asked about (``holdsChangeQueries``).
    func holdsChange(of facility: PulseFacility, _ index: UInt32) -> Bool {
        heldChanges.contains { $0.facility == facility && $0.index == index }
    }
    /// The new objects whose answers are out, clients excepted; the changes are held until none is.
    var newQueriesOut: [PulseChange] = []
    /// While set, the changes' queries are held too (new objects are still asked for at once), and go
    /// out once it is cleared: while a call's first moves have their head start, the server is carrying
    /// them out and announcing every stream they changed, and a query about each would have it answer
    /// them in between, for events that wait for the call's step anyway. Set while level commands are
    /// awaited, on PulseAudio it clears itself once the server has answered them all
    /// (``levelCommandsSettled(on:)``): held to the step, the queries met the reads of those who heard
    /// of the change.
    public var holdsChangeQueries = false {
        didSet {
            if oldValue, !holdsChangeQueries { askHeld() }
            if !oldValue, holdsChangeQueries { holdEndsWithAnswers = awaitsLevelCommands }
        }
    }
    /// Whether ``holdsChangeQueries`` was set while level commands were awaited.
    var holdEndsWithAnswers = false
    /// Each known stream's process (its chain and sandbox), with the process it was read for.
    var streamProcesses: [StreamID: ProcessFacts] = [:]
    /// Each client's process, read when the client connects: an app connects before it plays, so its
    /// streams find their process here instead of reading `/proc` while a call waits.
    var clientProcesses: [UInt32: ProcessFacts] = [:]
    /// The process PipeWire names as every pulse-protocol client's `pipewire.sec.pid` (pipewire-pulse's
    /// own, which connects to PipeWire for them): it vouches for no app. Nil on PulseAudio.
    var relayPID: Int32?
    /// Recognises apps from their properties, processes and desktop entries; an app is recognised
    /// once for what it is recognised from, not on every change of a stream's volume or state, nor
    /// for every new stream.
    var recognizer = AppRecognizer(environment: ProcessInfo.processInfo.environment)
    /// Reports changes of the desktop-entry folders (from start to stop), so that recognising an app
    /// looks at none.
    private var desktopEntryWatch: FolderWatch?
    /// Whether the adapter holds an inotify watch: a user has few (128 by default).
    var watchesFiles: Bool { socketWatch != nil || desktopEntryWatch != nil }
    /// The default sink and source as the bridge's own connection names them (on PipeWire they can lag
    /// behind the server's; see ``DefaultDeviceCheck``), for moves (see `ServerAdapter+Commands`).
    var connectionDefaults: (sink: String?, source: String?) = (nil, nil)
    /// Moves under way on connections of their own (see `ServerAdapter+Commands`).
    var moveConnections: [ErrandConnection] = []
    lazy var queryFlush = PulseDeferred(loop: loop) { [unowned self] in self.askPending() }
    /// The defaults as a new connection reads them, which PipeWire needs (see ``DefaultDeviceCheck``).
    lazy var defaultsCheck = DefaultDeviceCheck(loop: loop, server: server) { [unowned self] in
        self.defaultsChecked($0)
    }

    static let firstBackoff = Duration.milliseconds(100)
    static let maximumBackoff = Duration.seconds(2)
    /// After the socket was made: how often, and how soon, a refused connection is tried again.
    static let quickRetryCount = 10
    static let quickRetryDelay = Duration.milliseconds(10)

    /// An adapter for `server`; its connection takes up the server's shared memory once the server has
    /// stayed up for `sharedMemoryDelay`, never with nil (see `ServerAdapter+SharedMemory`).
    public init(loop: PulseLoop, server: String?, sharedMemoryDelay: Duration? = ServerAdapter.sharedMemoryDelay) {
        self.loop = loop
        self.server = server
        self.sharedMemoryDelay = sharedMemoryDelay
    }

    /// Connects now; on the loop thread.
    public func start() {
        stopped = false
        // The desktop entries are read now, not while a call's first stream waits for them.
        desktopEntryWatch = FolderWatch(loop: loop, folders: recognizer.entries.folders) { [unowned self] in
            recognizer.entries.changeReported()
        }
        recognizer.entries.isWatched = desktopEntryWatch != nil
        recognizer.entries.refreshIfChanged()
        socketWatch = ServerSocketWatch.socketPath(of: server).flatMap {
            ServerSocketWatch(loop: loop, socketPath: $0) { [unowned self] in self.socketAppeared() }
        }
        connect()
    }

    /// Disconnects and stops reconnecting; on the loop thread.
    public func stop() {
        stopped = true
        reconnectTimer.disarm()
        context?.disconnect()
        context = nil
        isConnected = false
        forgetPendingQueries()
        defaultsCheck.stop()
        endMoveConnections()
        endSharedMemoryUpgrade()
        (socketWatch, desktopEntryWatch) = (nil, nil)
    }

    private func connect() {
        guard !stopped, context == nil else { return }
        accepted = false
        do {
            let context = try makeContext(sharedMemory: false)
            adopt(context)
            try context.connect(server: server)
        } catch {
            connectionFailed()
        }
    }

    /// Makes `context` the bridge's connection: its state changes and events are the adapter's.
    func adopt(_ context: PulseContext) {
        self.context = context
        let ledger = CommandLedger(capacity: PulseContext.slotCapacity)
        commandLedger = ledger
        context.onSlotAnswer = { [unowned self] number, error in
            if let action = ledger.take(number), let error { self.report(action, error) }
            self.levelCommandAnswered(on: ledger)
        }
        context.onStateChange = { [unowned self, unowned context] state in self.stateChanged(state, of: context) }
        context.onChange = { [unowned self, unowned context] change in
            if !self.ownClientChanged(change, on: context) { self.changed(change) }
        }
    }

    private func stateChanged(_ state: PulseContext.State, of context: PulseContext) {
        guard context === self.context else { return }
        switch state {
        case .ready:
            context.subscribe { [unowned self] result in
                if case .failure = result { self.connectionFailed() } else { self.readEverything() }
            }
        case .failed, .terminated: connectionFailed()
        case .authorizing, .settingName: accepted = true
        default: break
        }
    }

    /// The server's socket was made: a server is back. Connect now, unless a connection is under way
    /// (if that one is refused, it is tried again at once).
    private func socketAppeared() {
        guard !stopped, !isConnected else { return }
        quickRetries = Self.quickRetryCount
        guard context == nil else { return }
        reconnectTimer.disarm()
        connect()
    }

    /// The context is dead: tell the engine once, discard the context, and try again later.
    func connectionFailed() {
        endSharedMemoryUpgrade()
        context?.discard()
        context = nil
        forgetUnansweredLevelCommands()
        let wasConnected = isConnected
        isConnected = false
        cache = ServerCache()
        order = QueryOrder()
        streamProcesses = [:]
        clientProcesses = [:]
        connectionDefaults = (nil, nil)
        endMoveConnections()
        forgetPendingQueries()
        if wasConnected || !lostAnnounced {
            lostAnnounced = true
            onEvent(.serverLost)
        }
        guard !stopped else { return }
        if !accepted && quickRetries > 0 {
            quickRetries -= 1
            return reconnectTimer.arm(after: Self.quickRetryDelay)
        }
        // A server that is not there is waited for on its socket, and looked for every 2 s besides;
        // one that accepted and failed, or one without a socket to watch (TCP), is backed off from.
        guard accepted || socketWatch == nil else { return reconnectTimer.arm(after: Self.maximumBackoff) }
        reconnectTimer.arm(after: backoff)
        backoff = min(backoff * 2, Self.maximumBackoff)
    }

    /// After (re)connecting: reads every object, feeds it to the engine, then announces the reset.
    func readEverything() {
        guard let context else { return }
        let started = order.querySent()
        let group = CompletionGroup { [unowned self] failed in
            guard context === self.context else { return }
            self.order.queryAnswered(started)
            if failed { return self.connectionFailed() }
            self.isConnected = true
            self.backoff = Self.firstBackoff
            self.quickRetries = 0
            if self.lostAnnounced {
                self.lostAnnounced = false
                self.onEvent(.serverReset)
            }
            self.onReady()
            self.scheduleSharedMemoryUpgrade()
        }
        context.serverInfo(group.track { [unowned self] (info: PulseServerInfo) in self.serverInfoReported(info) })
        context.sinks(group.track { [unowned self] (items: [PulseDevice]) in
            items.forEach { self.deviceArrived($0, askedAt: started) }
        })
        context.sources(group.track { [unowned self] (items: [PulseDevice]) in
            items.forEach { self.deviceArrived($0, askedAt: started) }
        })
        context.cards(group.track { [unowned self] (items: [PulseCard]) in
            items.forEach { self.cardArrived($0, askedAt: started) }
        })
        context.clients(group.track { [unowned self] (items: [PulseClientInfo]) in
            self.learnRelay(from: items, of: context)
            items.forEach { self.clientArrived($0, askedAt: started) }
        })
        context.sinkInputs(reading: ServerTranslation.streamKeysRead, group.track { [unowned self] (items: [PulseStream]) in
            items.forEach { self.streamArrived($0, askedAt: started) }
        })
        context.sourceOutputs(reading: ServerTranslation.streamKeysRead, group.track { [unowned self] (items: [PulseStream]) in
            items.forEach { self.streamArrived($0, askedAt: started) }
        })
        group.seal()
    }
}
