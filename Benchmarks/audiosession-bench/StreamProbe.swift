// SPDX-License-Identifier: Apache-2.0
import CPulse
import Foundation
import PulseAudioClient

/// The benchmark's own libpulse client. It watches every playback stream's mute and cork state and
/// stamps the moment a condition over them first holds, notes when devices vanish, and plays
/// streams of its own (one phone call, or thousands of quiet corked streams over many connections).
final class StreamProbe: @unchecked Sendable {
    private let loop: PulseLoop
    private let address: String
    private let context: PulseContext
    private let lock = NSLock()
    private var known: [UInt32: PulseStream] = [:]
    private var lastRemoval: ContinuousClock.Instant?
    private var waiter: Waiter?
    /// Loop-thread state: the probe's streams and the extra connections that carry them.
    private var ownStreams: [PulsePlaybackStream] = []
    private var extraContexts: [PulseContext] = []
    /// The connections that play music besides the probe's own, by number, under `lock`.
    private var musicContexts: [Int: PulseContext] = [:]
    /// When set, the probe mutes every music stream while a phone-role stream exists, as a client
    /// that silences other streams itself would (the baseline on servers without module-role-cork).
    var mutesMusicDuringCalls: Bool {
        get { lock.withLock { muting } }
        set { lock.withLock { muting = newValue } }
    }
    private var muting = false
    /// When set with ``mutesMusicDuringCalls``, the probe fades the music out before it mutes it, as the
    /// shipped policies do: the volumes of ``fadeVolumes`` one ``fadeStep`` apart (longer apart with
    /// more than ten streams, as the bridge spaces them), then, ``fadeLength`` after the first, the
    /// mute with the volume back at full.
    var fadesBeforeMuting = false
    static let fadeVolumes: [UInt32] = [0xC000, 0x8000, 0x4000]
    static let fadeStep = Duration.milliseconds(10)
    static let fadeLength = Duration.milliseconds(30)
    /// Loop-thread state of the fade: its next step, and when it began.
    private var nextFadeStep = 0
    private var fadeStarted = ContinuousClock.now
    private lazy var fadeTimer = PulseTimer(loop: loop) { [unowned self] in stepFade() }
    /// When set with ``mutesMusicDuringCalls``, a call counts once its stream plays, not while it is
    /// corked: the rule the bridge keeps (DESIGN §2, sound, not presence). PipeWire 0.3 reports every
    /// new stream corked until the graph runs it; an app may also open its call's stream corked long
    /// before the call.
    var waitsForThePlayingCall = false
    private var callStreams: Set<UInt32> = []
    /// When set, the probe reads changed streams with list queries, not one query per stream: in a call
    /// rig its own hundred queries would otherwise be most of what it measures. It asks once the server
    /// has announced no change for ``quietBeforeList``, and one list is out at a time: lists asked for on
    /// every loop turn with events sat in the server's queue between a silencer's commands. The stamps
    /// come from the announcements, so a later list does not make them later. A new stream is read
    /// alone. (Not at the scale of thousands of streams, where a list per event would bury the server.)
    let readsWholeList: Bool
    static let quietBeforeList = Duration.milliseconds(2)
    private lazy var listFlush = PulseTimer(loop: loop) { [unowned self] in askList() }
    /// Loop-thread state of the lists: one is out; changes came after it was asked for.
    private var listOut = false
    private var listWanted = false

    /// When the server last announced a change of each playback stream (its subscription event), under `lock`.
    private var announcedAt: [UInt32: ContinuousClock.Instant] = [:]

    private final class Waiter {
        let condition: ([UInt32: PulseStream]) -> Bool
        let announcers: (([UInt32: PulseStream]) -> [UInt32])?
        let semaphore = DispatchSemaphore(value: 0)
        /// When the condition was met (``met(_:announcedAt:now:)``) and when the probe's own view first
        /// showed it met (an answer in hand), whatever the announcers.
        var stamps: (announced: ContinuousClock.Instant, seen: ContinuousClock.Instant)?
        init(_ condition: @escaping ([UInt32: PulseStream]) -> Bool, announcers: (([UInt32: PulseStream]) -> [UInt32])?) {
            self.condition = condition
            self.announcers = announcers
        }

        /// When the condition was met: now, or, with announcers, when the server last announced a change
        /// of one of those streams (the change the answer that met the condition shows).
        func met(_ streams: [UInt32: PulseStream], announcedAt: [UInt32: ContinuousClock.Instant],
                 now: ContinuousClock.Instant) -> ContinuousClock.Instant {
            guard let announcers else { return now }
            return announcers(streams).compactMap { announcedAt[$0] }.max().map { min($0, now) } ?? now
        }

        /// Notes the condition met, seen `now`.
        func stamp(_ streams: [UInt32: PulseStream], announcedAt: [UInt32: ContinuousClock.Instant], now: ContinuousClock.Instant) {
            stamps = (met(streams, announcedAt: announcedAt, now: now), now)
        }
    }

    /// Connects to the server at `address` and reads its playback streams.
    init(address: String, readsWholeList: Bool = false) throws {
        self.readsWholeList = readsWholeList
        loop = try PulseLoop()
        loop.start()
        self.address = address
        context = try PulseContext(loop: loop, name: "audiosession-bench")
        let ready = DispatchSemaphore(value: 0)
        loop.perform { [self] in
            context.onStateChange = { if $0 == .ready || $0.isFinal { ready.signal() } }
            context.onChange = { [unowned self] in changed($0) }
            try? context.connect(server: address)
        }
        guard ready.wait(timeout: .now() + 10) == .success else { throw BenchError("the probe could not connect to \(address)") }
        let listed = DispatchSemaphore(value: 0)
        loop.perform { [self] in
            context.subscribe(to: [.sink, .sinkInput]) { _ in }
            context.sinkInputs { [unowned self] in
                if case .success(let streams) = $0 { streams.forEach { arrived($0) } }
                listed.signal()
            }
        }
        listed.wait()
    }

    /// What a muting process (``Silencer/muterProcess``) prints once it has read the server.
    static let muterReady = "muting music during calls"

    /// Runs a muting process: connects to `address`, mutes every music stream while a phone-role stream
    /// exists, and never returns.
    static func runMuter(address: String, fading: Bool = false) throws -> Never {
        let probe = try StreamProbe(address: address)
        probe.fadesBeforeMuting = fading
        probe.waitsForThePlayingCall = true
        probe.mutesMusicDuringCalls = true
        FileHandle.standardOutput.write(Data((muterReady + "\n").utf8))
        while true { sleep(3600) }
    }

    /// Ends every stream and connection of the probe.
    func close() {
        let done = DispatchSemaphore(value: 0)
        loop.perform { [self] in
            ownStreams.forEach { $0.disconnect() }
            ownStreams = []
            extraContexts.forEach { $0.disconnect() }
            extraContexts = []
            context.disconnect()
            done.signal()
        }
        done.wait()
        loop.stop()
    }

    /// The playback streams as last reported.
    var streams: [UInt32: PulseStream] { lock.withLock { known } }

    /// Asks the server to end the playback stream `index`, whoever plays it (its report of the removal
    /// says it did).
    func kill(_ index: UInt32) {
        loop.perform { [self] in context.killSinkInput(index) { _ in } }
    }

    /// When the server last reported a sink removed.
    /// When the server reported a sink removed after `after`, waiting for that report if it is still on
    /// its way (the bridge's signal about the same removal can arrive first).
    func sinkRemoval(after: ContinuousClock.Instant, timeout: Duration = .seconds(10)) throws -> ContinuousClock.Instant {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let removal = lock.withLock({ lastRemoval }), removal >= after { return removal }
            usleep(200)
        }
        throw BenchError("the probe saw no sink removed")
    }

    /// Waits until `condition` holds over the playback streams and returns when the probe first saw it
    /// hold. With `announcers` (the streams whose change meets the condition), it returns when the server
    /// announced the last change of those streams before the answer that showed the condition met: when
    /// the server made the change, give or take a wake-up, without the probe's own question and whatever
    /// the server answered before it.
    func stamp(_ what: String, when condition: @escaping ([UInt32: PulseStream]) -> Bool,
               announcedBy announcers: (([UInt32: PulseStream]) -> [UInt32])? = nil, timeout: Duration = .seconds(10)) throws
        -> ContinuousClock.Instant
    {
        try stamps(what, when: condition, announcedBy: announcers, timeout: timeout).announced
    }

    /// As ``stamp(_:when:announcedBy:timeout:)``, with the moment the probe's own view first showed the
    /// condition met (`seen`): what a client outside the bridge observes, its own reading included.
    func stamps(_ what: String, when condition: @escaping ([UInt32: PulseStream]) -> Bool,
                announcedBy announcers: (([UInt32: PulseStream]) -> [UInt32])? = nil, timeout: Duration = .seconds(10)) throws
        -> (announced: ContinuousClock.Instant, seen: ContinuousClock.Instant)
    {
        let waiter = Waiter(condition, announcers: announcers)
        lock.withLock {
            guard condition(known) else { return self.waiter = waiter }
            waiter.stamp(known, announcedAt: announcedAt, now: .now)
        }
        if let stamps = waiter.stamps { return stamps }
        let seconds = Double(timeout.components.seconds)
        guard waiter.semaphore.wait(timeout: .now() + seconds) == .success,
            let stamps = lock.withLock({ waiter.stamps })
        else {
            lock.withLock { self.waiter = nil }
            let states = streams.values.sorted { $0.index < $1.index }.prefix(20)
                .map { "#\($0.index) \($0.properties["application.name"] ?? "?") mute=\($0.mute) corked=\($0.corked)" }
            throw BenchError("timed out after \(timeout) waiting for \(what); \(streams.count) streams, the first: \(states.joined(separator: ", "))")
        }
        return stamps
    }

    /// Starts a playing stream with these properties; returns a handle for ``stop(_:)``. With
    /// `connection` above 0 the stream plays from another connection of the probe's, made for it
    /// (pipewire-pulse takes at most 64 streams per client).
    func play(properties: [String: String], connection: Int = 0) throws -> Int {
        let playing = connection == 0 ? context : try musicConnection(connection)
        let started = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var handle = 0  // written on the loop thread before `started` is signalled
        loop.perform { [self] in
            if let stream = try? PulsePlaybackStream(context: playing, name: properties["media.name"] ?? "bench",
                                                     sampleRate: 48000, channels: 2, properties: properties) {
                try? stream.connect(bufferAttributes: nil)
                ownStreams.append(stream)
            }
            handle = ownStreams.count - 1
            started.signal()
        }
        started.wait()
        return handle
    }

    /// The probe's `number`th connection for music (number 1 is the first beside its own), made and
    /// connected when first asked for.
    private func musicConnection(_ number: Int) throws -> PulseContext {
        if let known = lock.withLock({ musicContexts[number] }) { return known }
        let made = try connectedContext(name: "audiosession-bench music \(number)")
        lock.withLock { musicContexts[number] = made }
        return made
    }

    /// A new connection of the probe's, once the server has taken it (kept until ``close()``).
    private func connectedContext(name: String, properties: [String: String] = [:]) throws -> PulseContext {
        let ready = DispatchSemaphore(value: 0)
        // Written on the loop thread before `ready` is signalled.
        nonisolated(unsafe) var made: PulseContext?
        nonisolated(unsafe) var connected = false
        loop.perform { [self] in
            guard let extra = try? PulseContext(loop: loop, name: name, properties: properties) else {
                ready.signal()
                return
            }
            extraContexts.append(extra)
            made = extra
            extra.onStateChange = { state in
                guard state == .ready || state.isFinal, !connected else { return }
                connected = state == .ready
                ready.signal()
            }
            do { try extra.connect(server: address) } catch { ready.signal() }
        }
        guard ready.wait(timeout: .now() + 10) == .success, connected, let made else {
            throw BenchError("the probe's connection \(name) could not connect")
        }
        return made
    }

    /// Ends a stream started by ``play(properties:)``, once the server has answered its creation: a
    /// stream disconnected before that is never deleted on pipewire-pulse, which announces a stream
    /// before it answers its client.
    func stop(_ handle: Int) {
        loop.perform { [self] in
            let stream = ownStreams[handle]
            if stream.isReady {
                stream.disconnect()
            } else {
                stream.onStateChange = { [unowned stream] _ in stream.disconnect() }
            }
        }
    }

    /// Sets a playback stream's volume on every channel.
    func setVolume(of index: UInt32, _ volume: UInt32) {
        loop.perform { [self] in context.setSinkInputVolume(index, [volume, volume]) { _ in } }
    }

    /// Opens `connections` more client connections, each with `streamsEach` corked streams spread over
    /// `sinks`, and waits until the server reports all of them. The connections are opened one after
    /// the other: a burst of connects overflows the server socket's listen backlog.
    func openCorkedStreams(connections: Int, streamsEach: Int, sinks: [String]) throws {
        let before = streams.count
        for connection in 0..<connections {
            let extra = try connectedContext(name: "bench-client-\(connection)",
                                             properties: ["application.name": "bench-client-\(connection)"])
            loop.perform { [self] in
                for number in 0..<streamsEach {
                    guard let stream = try? PulsePlaybackStream(context: extra, name: "quiet-\(number)", sampleRate: 48000,
                                                                channels: 2, properties: [:]) else { continue }
                    let small = pa_buffer_attr(maxlength: UInt32.max, tlength: 1920, prebuf: UInt32.max,
                                               minreq: UInt32.max, fragsize: UInt32.max)
                    try? stream.connect(bufferAttributes: small, device: sinks[(connection * streamsEach + number) % sinks.count],
                                        startCorked: true)
                    ownStreams.append(stream)
                }
            }
        }
        let expected = before + connections * streamsEach
        _ = try stamp("\(expected) streams", when: { $0.count >= expected }, timeout: .seconds(60))
    }

    // MARK: Loop thread

    private func changed(_ change: PulseChange) {
        if change.facility == .sinkInput, change.kind != .remove {
            let now = ContinuousClock.now
            lock.withLock { announcedAt[change.index] = now }
        }
        switch (change.facility, change.kind) {
        case (.sink, .remove):
            let now = ContinuousClock.now
            lock.withLock { lastRemoval = now }
        case (.sinkInput, .remove):
            lock.withLock {
                known[change.index] = nil
                announcedAt[change.index] = nil
            }
            if callStreams.remove(change.index) != nil, callStreams.isEmpty { muteMusic(false) }
            check()
        case (.sinkInput, let kind) where kind == .new || !readsWholeList:
            // A new stream is read alone also when the probe reads lists: a list asked for here would sit
            // in the server's queue ahead of the silencer's own question about the same stream, and only
            // the changes of the streams already known decide a stamp.
            context.sinkInput(change.index) { [unowned self] in
                if case .success(let stream?) = $0 { arrived(stream) }
            }
        case (.sinkInput, _):
            listWanted = true
            listFlush.arm(after: Self.quietBeforeList)
        default: break
        }
    }

    /// Asks for every playback stream at once, unless a list is out (its answer asks again).
    private func askList() {
        guard listWanted, !listOut else { return }
        listWanted = false
        listOut = true
        context.sinkInputs { [unowned self] result in
            if case .success(let streams) = result { streams.forEach { arrived($0, checking: false) } }
            check()
            listOut = false
            askList()
        }
    }

    private func arrived(_ stream: PulseStream, checking: Bool = true) {
        let muting = lock.withLock {
            known[stream.index] = stream
            return self.muting
        }
        if muting, stream.properties["media.role"] == "phone", !(waitsForThePlayingCall && stream.corked),
            callStreams.insert(stream.index).inserted
        {
            muteMusic(true)
        }
        if checking { check() }
    }

    /// Mutes or unmutes every music stream (loop thread).
    private func muteMusic(_ mute: Bool) {
        if fadesBeforeMuting {
            fadeTimer.disarm()
            nextFadeStep = 0
            if mute { return stepFade() }
            for index in musicIndexes() { context.setSinkInputVolume(index, [0x10000, 0x10000]) { _ in } }
        }
        for index in musicIndexes() { context.setSinkInputMute(index, mute) { _ in } }
    }

    /// Sends the fade's next volume to every music stream, or, once the fade is over, the mute.
    private func stepFade() {
        if nextFadeStep == 0 { fadeStarted = .now }
        let elapsed = ContinuousClock.now - fadeStarted
        let music = musicIndexes()
        guard nextFadeStep < Self.fadeVolumes.count, elapsed < Self.fadeLength else {
            for index in music {
                context.setSinkInputMute(index, true) { _ in }
                context.setSinkInputVolume(index, [0x10000, 0x10000]) { _ in }
            }
            return
        }
        let volume = Self.fadeVolumes[nextFadeStep]
        nextFadeStep += 1
        for index in music { context.setSinkInputVolume(index, [volume, volume]) { _ in } }
        let spacing = Self.fadeStep * max(1, Double(music.count) / 10)
        fadeTimer.arm(after: min(spacing, Self.fadeLength - elapsed))
    }

    private func musicIndexes() -> [UInt32] {
        lock.withLock { known.values.filter { $0.properties["media.role"] == "music" }.map(\.index) }
    }

    private func check() {
        let now = ContinuousClock.now
        lock.withLock {
            guard let waiter, waiter.condition(known) else { return }
            waiter.stamp(known, announcedAt: announcedAt, now: now)
            self.waiter = nil
            waiter.semaphore.signal()
        }
    }
}

/// A benchmark that could not run, and why.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
