// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import PulseAudioClient

/// The shell's ears for "sound, not presence" (DESIGN §2): for each stream the engine asks about
/// (``PolicyAction/watchSound(_:silence:)``), a peak monitor of that stream alone, as the desktop's
/// level meters read it (``PulsePeakMonitor``, 25 readings a second), and a timer. A reading above
/// ``soundThreshold`` is sound; the engine hears ``PolicyEvent/streamSounding(_:)`` and ``PolicyEvent/streamSilent(_:)`` when a stream
/// has had no sound for its policy's silence, and again at its first sound after that. A stream is
/// taken as sounding when the watch starts. Runs on the loop thread.
final class SoundWatch {
    private let loop: PulseLoop
    private let adapter: ServerAdapter
    private let report: (PolicyEvent) -> Void
    private var watched: [StreamID: WatchedStream] = [:]

    /// The property that marks the bridge's own monitor streams, which are not apps.
    static let marker = "audiosession.sound-watch"
    /// Readings a second: enough to hear the end of a word, little work for the server.
    static let readingsPerSecond: UInt32 = 25
    /// The level (of full scale) above which a reading is sound: −60 dBFS.
    static let soundThreshold = 0.001
    /// A monitor that ends while its stream is still watched (PulseAudio ends it when the stream moves
    /// to another device) is opened again after this, at most ``reopenLimit`` times in a row.
    static let reopenDelay = Duration.milliseconds(100)
    static let reopenLimit = 5

    /// One stream's monitor, silence timer and state.
    private final class WatchedStream {
        let silence: Duration
        let silenceTimer: PulseTimer
        var monitor: PulsePeakMonitor?
        var reopenTimer: PulseTimer?
        var silent = false
        var reopens = 0

        init(silence: Duration, silenceTimer: PulseTimer) {
            self.silence = silence
            self.silenceTimer = silenceTimer
        }

        func close() {
            silenceTimer.disarm()
            reopenTimer?.disarm()
            let ending = monitor
            forgetMonitor()
            ending?.disconnect()
        }

        /// Lets the monitor go without hearing from it again.
        func forgetMonitor() {
            monitor?.onPeak = nil
            monitor?.onStateChange = nil
            monitor = nil
        }
    }

    init(loop: PulseLoop, adapter: ServerAdapter, report: @escaping (PolicyEvent) -> Void) {
        self.loop = loop
        self.adapter = adapter
        self.report = report
    }

    /// Carries out the engine's watch and stop actions; others are ignored.
    func perform(_ action: PolicyAction) {
        switch action {
        case .watchSound(let id, let silence): start(id, silence: silence)
        case .stopWatchingSound(let id): stop(id)
        default: break
        }
    }

    /// The server went away and took the monitors with it; the engine forgot the streams.
    func forgetAll() {
        watched.values.forEach { $0.close() }
        watched = [:]
    }

    private func start(_ id: StreamID, silence: Duration) {
        guard id.direction == .output else { return }
        stop(id)
        let entry = WatchedStream(silence: silence, silenceTimer: PulseTimer(loop: loop) { [unowned self] in silenceLasted(id) })
        watched[id] = entry
        entry.silenceTimer.arm(after: silence)
        open(id)
    }

    private func stop(_ id: StreamID) {
        watched.removeValue(forKey: id)?.close()
    }

    private func open(_ id: StreamID) {
        guard let entry = watched[id] else { return }
        // A stream met while the server is still being read is watched once the connection is ready.
        guard let context = adapter.currentContext else { return scheduleOpen(id, entry) }
        do {
            let monitor = try PulsePeakMonitor(context: context, sinkInput: id.index, readingsPerSecond: Self.readingsPerSecond,
                                               properties: [Self.marker: "\(id.index)", "application.id": ServerAdapter.clientApplicationID])
            monitor.onPeak = { [unowned self] peak in heard(id, peak) }
            monitor.onStateChange = { [unowned self] ready in if !ready { ended(id) } }
            entry.monitor = monitor
            try monitor.connect()
        } catch {
            ended(id)
        }
    }

    /// A reading: sound re-arms the silence timer and, after silence, tells the engine.
    private func heard(_ id: StreamID, _ peak: Double) {
        guard let entry = watched[id] else { return }
        entry.reopens = 0
        guard peak > Self.soundThreshold else { return }
        entry.silenceTimer.arm(after: entry.silence)
        if entry.silent {
            entry.silent = false
            report(.streamSounding(id))
        }
    }

    private func silenceLasted(_ id: StreamID) {
        guard let entry = watched[id], !entry.silent else { return }
        entry.silent = true
        report(.streamSilent(id))
    }

    /// The monitor ended while its stream is watched: open it again shortly, a few times in a row.
    private func ended(_ id: StreamID) {
        guard let entry = watched[id] else { return }
        entry.forgetMonitor()
        guard entry.reopens < Self.reopenLimit else { return }
        entry.reopens += 1
        scheduleOpen(id, entry)
    }

    private func scheduleOpen(_ id: StreamID, _ entry: WatchedStream) {
        let timer = entry.reopenTimer ?? PulseTimer(loop: loop) { [unowned self] in open(id) }
        entry.reopenTimer = timer
        timer.arm(after: Self.reopenDelay)
    }
}
