// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionDaemon
import AudioTestHarness
import CAllocationCount
import CPulse
import Foundation
import Glibc
import PulseAudioClient

extension Benchmarks {
    /// The allocations on a call's path (DESIGN §3, "Decide ahead"), on every stack: a bridge in this
    /// process, on a private server with the shipped policies, the journal and the event log's share
    /// as the daemon has them, hears of a phone stream that starts next to `counts` music streams.
    /// Counted on the bridge's loop thread from the event that starts the stream (it appears playing,
    /// or, on PipeWire, it appears paused and then plays) to its first moves handed to libpulse,
    /// against libpulse's own allocations for the same commands sent straight through its C calls.
    static func allocationsOnTheCallPath(musicStreams counts: [Int], rounds: Int) throws -> [ReportLine] {
        try checkAllocationCount()
        var lines: [ReportLine] = []
        for kind in [SoundServerKind.pulseaudio, .pipewire16, .pipewire14, .pipewire] {
            do { lines += try allocationsOnTheCallPath(kind, musicStreams: counts, rounds: rounds) } catch {
                throw BenchError("\(kind): \(error)")
            }
        }
        return lines
    }

    private static func allocationsOnTheCallPath(_ kind: SoundServerKind, musicStreams counts: [Int], rounds: Int) throws
        -> [ReportLine]
    {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let rig = try InProcessBridge(server: server)
        defer { rig.stop() }
        let probe = try StreamProbe(address: server.address)
        defer { probe.close() }
        let stack = switch kind {
        case .pulseaudio: ""
        case .pipewire16: "PipeWire 1.6: "
        case .pipewire14: "PipeWire 1.4: "
        case .pipewire: "PipeWire 0.3: "
        }
        var lines: [ReportLine] = []
        var playing = 0
        for count in counts.sorted() {
            while playing < count {
                _ = try probe.play(properties: ["media.role": "music", "application.name": "bench-music",
                                                "media.name": "music \(playing)"], connection: playing / 50)
                playing += 1
            }
            var bridge: [Int] = [], commands: [Int] = [], decidedInFull = 0, neverStarted = 0
            while bridge.count < rounds {
                // The server has carried out the last call's end (the bridge hears of each unmute; a
                // report that comes after it decided ahead makes its table stale), and the bridge is ready.
                do {
                    _ = try probe.stamp("the music playing as before the call", when: { CallRig.music($0, count) { !$0.mute } })
                } catch {
                    let muted = CallRig.musicStreams(probe.streams).filter(\.mute).map(\.index).sorted()
                    throw BenchError("\(error)\nafter \(bridge.count + decidedInFull) calls next to \(count) music streams, muted: \(muted)\n"
                                     + ((try? rig.describe(muted)) ?? "the bridge's view: its loop did not answer"))
                }
                try rig.waitUntilReady(playingMusic: count)
                let call = try probe.play(properties: ["media.role": "phone", "application.name": CallRig.callApp, "media.name": "call"])
                let path: InProcessBridge.CountedPath
                do { path = try rig.takeCountedPath() } catch {
                    let failure = try probe.stopUnansweredCall(call, app: CallRig.callApp, after: error)
                    // A call the server never started is made again, as in the interruption benchmark.
                    guard failure is CallNeverPlayed, neverStarted < CallNeverPlayed.retakes else { throw failure }
                    neverStarted += 1
                    FileHandle.standardError.write(Data("a call made again: \(failure)\n".utf8))
                    continue
                }
                probe.stop(call)
                // An event that came between the bridge's deciding and the call's start (the server's
                // report of a stream) makes the table stale, and the step is decided in full: not the
                // path measured, and the call is made again.
                guard path.decidedAhead else {
                    decidedInFull += 1
                    guard decidedInFull <= rounds * 2 else { throw BenchError("the calls' first moves were not decided ahead") }
                    continue
                }
                bridge.append(path.allocations)
                commands.append(path.commands)
            }
            let music = CallRig.musicIndexes(probe.streams)
            // libpulse's own count varies a little with its free lists and queues: the middle of five.
            let library = try rig.libpulseAllocations(volumesOf: music, server: server, times: 5).sorted()[2]
            let figure = bridge.sorted()[bridge.count / 2]
            let noun = count == 1 ? "stream" : "streams"
            lines.append(ReportLine(
                name: "\(stack)allocations from a phone stream's start to its first moves, next to \(count) music \(noun), p50",
                figure: "\(figure) (\(commands.max() ?? 0) commands)", baseline: "\(library) libpulse's own",
                ratio: library > 0 ? Double(figure) / Double(library) : nil, budget: "≈ 1× (none of its own)"))
        }
        return lines
    }

    /// Throws when the count sees nothing: the bench's allocator entry points were not the ones used.
    private static func checkAllocationCount() throws {
        allocation_count_start()
        let made = [Int](repeating: 7, count: 64 + Int(getpid() % 2))
        let seen = allocation_count_stop()
        guard seen > 0, made.count > 0 else { throw BenchError("the allocation count sees no allocation") }
    }
}

/// A bridge on a loop of this process, as the daemon builds it (the journal, the event log's share of
/// each action), whose phone streams' events are counted: their allocations and the server commands
/// sent while each is handled.
private final class InProcessBridge: @unchecked Sendable {
    let loop: PulseLoop
    let directory = NSTemporaryDirectory() + "allocation-bench-\(getpid())"
    private var core: BridgeCore!
    private var journal: EffectJournal!
    private let lock = NSLock()
    /// Loop-thread state: whether a counted event is being handled, how many first moves it wrote (a
    /// journal entry before each one's command), and whether the engine's full step ran in it (the
    /// first moves were not decided ahead).
    private var counting = false
    private var firstMovesWritten = 0
    private var steppedInFull = false
    /// The phone streams whose start was counted (loop thread).
    private var countedCalls: Set<StreamID> = []
    /// The counted paths not taken yet, under `lock`.
    private var counted: [CountedPath] = []

    /// A counted call's start.
    struct CountedPath {
        var allocations: Int
        var commands: Int
        var decidedAhead: Bool
    }

    init(server: SoundServer) throws {
        loop = try PulseLoop()
        loop.start()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try onLoop { [self] in
            journal = try EffectJournal(directory: directory)
            core = BridgeCore(loop: loop, server: server.address, engine: PolicyEngine(policies: DefaultPolicies.set))
            // Each first move's command follows its own journal entry, both while the event is handled;
            // the observers hear of the moves on the loop's next turn, outside the counted handling.
            core.writeJournal { [unowned self] action in
                journal.apply(action)
                if counting, case .journalWrite = action { firstMovesWritten += 1 }
            }
            core.observeActions { action in _ = EventLogRecords.record(for: action, app: { _ in "" }, at: Date()) }
            // The engine's full step tells its observers of the event; first moves sent ahead do not.
            core.observeEvents { [unowned self] _ in if counting { steppedInFull = true } }
            let handle = core.adapter.onEvent
            core.adapter.onEvent = { [unowned self] event in
                // PipeWire gives a new stream the index of one that has ended.
                if case .streamVanished(let id) = event { countedCalls.remove(id) }
                guard let started = Self.startedCall(event), countedCalls.insert(started).inserted else { return handle(event) }
                counting = true
                firstMovesWritten = 0
                steppedInFull = false
                allocation_count_start()
                handle(event)
                let allocations = allocation_count_stop()
                counting = false
                let path = CountedPath(allocations: allocations, commands: firstMovesWritten, decidedAhead: !steppedInFull && firstMovesWritten > 0)
                lock.withLock { counted.append(path) }
            }
            core.start()
        }
    }

    /// The phone stream an event reports playing: it appeared playing, or it plays now.
    private static func startedCall(_ event: PolicyEvent) -> StreamID? {
        switch event {
        case .streamAppeared(let info), .streamChanged(let info): info.role == "phone" && !info.corked ? info.id : nil
        default: nil
        }
    }

    /// Waits until the bridge knows `playingMusic` playing streams, none changed by it, and has decided
    /// its first moves ahead.
    func waitUntilReady(playingMusic: Int) throws {
        try waitUntil("the bridge to know \(playingMusic) music streams and decide ahead", timeout: .seconds(30)) {
            try onLoop { [self] in
                core.engine.playingOutputTotal == playingMusic && core.engine.streamsWithEffects.isEmpty
                    && core.engine.firstMovesAreReady
            }
        }
    }

    /// The bridge's view of some output streams: whether it has an effect in force on each, and what it
    /// holds to be the user's mute (a stuck mute is the bridge's, the server's memory taken for the
    /// user's, or a command the server did not carry out).
    func describe(_ indexes: [UInt32]) throws -> String {
        try onLoop { [self] in
            let withEffects = core.engine.streamsWithEffects
            let views = indexes.map { index in
                let id = StreamID(.output, index)
                let user = core.engine.userLevels(of: id).map { "user mute \($0.mute)" } ?? "unknown"
                return "#\(index) \(user)\(withEffects.contains(id) ? ", effect in force" : "")"
            }
            return "the bridge's view: " + views.joined(separator: ", ")
        }
    }

    /// The counted path of the next phone stream, once the bridge has heard of it.
    func takeCountedPath() throws -> CountedPath {
        var path: CountedPath?
        try waitUntil("the bridge to hear of the phone stream", timeout: .seconds(10)) {
            path = lock.withLock { counted.isEmpty ? nil : counted.removeFirst() }
            return path != nil
        }
        return path!
    }

    /// libpulse's allocations for one volume command to each of `streams`, sent with its C calls on a
    /// connection of the loop's own, on the loop thread, each with a callback for its answer (that
    /// makes libpulse keep a record of it, as for the bridge's); the volumes are the streams' own.
    /// Counted `times` over one connection.
    func libpulseAllocations(volumesOf streams: [UInt32], server: SoundServer, times: Int) throws -> [Int] {
        let context = try onLoop { [self] in pa_context_new(loop.api, "audiosession-bench raw commands") }
        guard let context else { throw BenchError("libpulse made no context") }
        defer { try? onLoop { pa_context_disconnect(context); pa_context_unref(context) } }
        _ = try onLoop { pa_context_connect(context, server.address, PA_CONTEXT_NOFLAGS, nil) }
        try waitUntil("the raw connection to be ready") {
            try onLoop { pa_context_get_state(context) == PA_CONTEXT_READY }
        }
        return try (0..<times).map { _ in
            // Each count starts with the last one's answers in, as the bridge's first moves do.
            try waitUntil("libpulse's answers to the raw commands") { try onLoop { pa_context_is_pending(context) == 0 } }
            return try onLoop {
                var volume = pa_cvolume()
                pa_cvolume_set(&volume, 2, pa_volume_t(PA_VOLUME_NORM))
                allocation_count_start()
                for index in streams {
                    if let operation = pa_context_set_sink_input_volume(context, index, &volume, Self.ignoreAnswer, nil) {
                        pa_operation_unref(operation)
                    }
                }
                return allocation_count_stop()
            }
        }
    }

    /// An answer's callback that does nothing.
    private static let ignoreAnswer: pa_context_success_cb_t = { _, _, _ in }

    func stop() {
        try? onLoop { [self] in core.stop() }
        loop.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs `body` on the loop thread and waits for its result.
    private func onLoop<T>(_ body: @escaping () throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<T, Error>?
        nonisolated(unsafe) let work = body
        loop.perform {
            result = Result { try work() }
            done.signal()
        }
        guard done.wait(timeout: .now() + 10) == .success, let result else { throw BenchError("the bridge's loop did not answer") }
        return try result.get()
    }
}
