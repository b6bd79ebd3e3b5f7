import AudioTestHarness
import DBusKit
import Foundation
import PulseAudioClient

/// The benchmarks of DESIGN.md §3's performance budget. Each measures the bridge and, in the same
/// run, a baseline it is compared with.
enum Benchmarks {
    /// Policy files that make the role-cork comparison like for like: music is muted at once (no
    /// fade) when a phone-role stream plays, and the call ends as soon as its stream does.
    static let roleCorkPolicies = [
        "bench-music.toml": """
            schema = 1
            description = "Music of the role-cork comparison"
            [session]
            category = "playback"
            options = ["mixWithOthers"]
            [fades]
            interruption-ms = 0
            [match]
            roles = ["music"]
            precedence = 900
            """,
        "bench-call.toml": """
            schema = 1
            description = "Calls of the role-cork comparison"
            [session]
            category = "playAndRecord"
            mode = "voiceChat"
            [activation]
            release-grace-ms = 0
            [match]
            roles = ["phone"]
            precedence = 900
            """,
    ]

    // MARK: A phone-role stream silences the others

    /// From a phone-role stream's connection until every music stream is silenced, for each count of
    /// music streams: the bridge (mute) against PulseAudio's module-role-cork (mute and cork request),
    /// side by side: both servers run at once and their rounds alternate, so that whatever else the
    /// machine does weighs on both.
    static func roleCork(musicStreams counts: [Int], rounds: Int) throws -> [ReportLine] {
        try counts.map { count in
            let baselineRig = try CallRig(musicStreams: count, bridge: false)
            defer { baselineRig.stop() }
            let bridgeRig = try CallRig(musicStreams: count, bridge: true)
            defer { bridgeRig.stop() }
            var baseline = Samples(), bridge = Samples()
            for round in 0...rounds {
                let (withoutBridge, withBridge) = (try baselineRig.round(), try bridgeRig.round())
                if round > 0 {  // the first round warms up
                    baseline.append(withoutBridge)
                    bridge.append(withBridge)
                }
            }
            return ReportLine(name: "phone stream → \(count) music stream\(count == 1 ? "" : "s") silenced, p50",
                              figure: bridge.median.formatted + " (p95 \(bridge.percentile(0.95).formatted))",
                              baseline: baseline.median.formatted + " module-role-cork",
                              ratio: bridge.median / baseline.median, budget: "≤ 1.2×")
        }
    }

    /// A private server with music streams playing, where a call starts and ends: with the bridge, or
    /// with module-role-cork and no bridge.
    private final class CallRig {
        let server: SoundServer
        let daemon: BridgeDaemon?
        let probe: StreamProbe
        let count: Int

        init(musicStreams count: Int, bridge: Bool) throws {
            self.count = count
            server = try SoundServer(.pulseaudio, extraModules: bridge ? [] : ["module-role-cork"])
            if bridge {
                let folder = server.root + "/bench-policies"
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                for (name, text) in roleCorkPolicies { try text.write(toFile: folder + "/" + name, atomically: false, encoding: .utf8) }
                daemon = try BridgeDaemon(server: server, arguments: ["--policies", folder])
            } else {
                daemon = nil
            }
            probe = try StreamProbe(address: server.address)
            // The music streams are the probe's own: unlike pacat, they do not cork themselves when
            // module-role-cork asks them to, so both sides are measured until the same thing, the mute.
            for number in 0..<count {
                _ = probe.play(properties: ["media.role": "music", "application.name": "bench-music-\(number)", "media.name": "music"])
            }
            _ = try probe.stamp("\(count) music streams", when: { [count] in Self.music($0, count, muted: false) }, timeout: .seconds(30))
            daemon.map { ProcessFigures(pid: $0.process.pid).waitUntilQuiet() }
        }

        func stop() {
            probe.close()
            _ = daemon?.terminate()
            server.stop()
        }

        /// Whether all `count` music streams are there, muted or not.
        static func music(_ streams: [UInt32: PulseStream], _ count: Int, muted: Bool) -> Bool {
            let music = streams.values.filter { $0.properties["application.name"]?.hasPrefix("bench-music") ?? false }
            return music.count == count && music.allSatisfy { $0.mute == muted }
        }

        /// One call: the time until the music is silenced; then the call ends and the music comes back.
        func round() throws -> Duration {
            let start = ContinuousClock.now
            let call = probe.play(properties: ["media.role": "phone", "application.name": "bench-call", "media.name": "call"])
            let silenced = try probe.stamp("the music silenced", when: { [count] in Self.music($0, count, muted: true) })
            probe.stop(call)
            _ = try probe.stamp("the music back", when: { [count] in Self.music($0, count, muted: false) })
            return silenced - start
        }
    }

    // MARK: Device removal and method calls

    /// From the server reporting a device removed to the RouteChange signal arriving at a client, and a
    /// method call's round trip, each against a `Peer.Ping` round trip to the same daemon.
    static func routeChangeAndCalls(rounds: Int, calls: Int) throws -> [ReportLine] {
        let server = try SoundServer(.pulseaudio)
        defer { server.stop() }
        let daemon = try BridgeDaemon(server: server)
        defer { daemon.terminate() }
        let client = try BusClient(address: server.busAddress!)
        let clock = try SignalClock(address: server.busAddress!)
        defer { clock.close() }
        let probe = try StreamProbe(address: server.address)
        defer { probe.close() }
        let session = try client.createSession("bench-route")
        try client.setCategory(session.path, "playback")
        try client.setActive(session.path, true)

        var routeChanges = Samples()
        for round in 0...rounds {
            let plugged = ContinuousClock.now
            let modules = try server.plug(.wiredHeadphones)
            try server.setDefaultSink("headphones")
            _ = try clock.arrival(of: "RouteChange", path: session.path, after: plugged)
            let unplugging = ContinuousClock.now
            for module in modules { try server.unloadModule(module) }
            let signal = try clock.arrival(of: "RouteChange", path: session.path, after: unplugging)
            let removal = try probe.sinkRemoval(after: unplugging)
            if round > 0 { routeChanges.append(signal - removal) }
            // Changes within the engine's route-settle window (150 ms) after a report are folded into
            // it as the server's follow-ups; the next round is a new plug, so it waits the window out.
            usleep(200_000)
        }

        var pings = Samples(), gets = Samples(), lists = Samples(), creates = Samples(), activations = Samples()
        func time(_ samples: inout Samples, _ body: () throws -> Void) rethrows {
            let start = ContinuousClock.now
            try body()
            samples.append(ContinuousClock.now - start)
        }
        for _ in 0..<calls {
            try time(&pings) { try client.call(BusClient.manager, "org.freedesktop.DBus.Peer", "Ping") }
            try time(&gets) { _ = try client.property(session.path, "IsActive") }
            try time(&lists) { try client.call(BusClient.manager, BusClient.bridge, "ListSessions") }
            try time(&activations) { try client.setActive(session.path, false) }
            try client.setActive(session.path, true)
        }
        let others = try BusClient(address: server.busAddress!)
        for number in 0..<min(calls, 30) {
            var created = ""
            try time(&creates) { created = try others.createSession("bench-created-\(number)").path }
            try others.call(created, BusClient.sessionInterface, "Release")
        }
        let ping = pings.median
        return [
            ReportLine(name: "device removed → RouteChange at a client, p50", figure: routeChanges.median.formatted
                        + " (p95 \(routeChanges.percentile(0.95).formatted))",
                       baseline: ping.formatted + " Peer.Ping", ratio: routeChanges.median / ping, budget: "< 1 ms"),
            ReportLine(name: "Properties.Get(IsActive) round trip, p50", figure: gets.median.formatted,
                       baseline: ping.formatted + " Peer.Ping", ratio: gets.median / ping, budget: "≈ 1×"),
            ReportLine(name: "ListSessions round trip, p50", figure: lists.median.formatted,
                       baseline: ping.formatted + " Peer.Ping", ratio: lists.median / ping, budget: "≈ 1×"),
            ReportLine(name: "SetActive(false) round trip, p50", figure: activations.median.formatted,
                       baseline: ping.formatted + " Peer.Ping", ratio: activations.median / ping, budget: "≈ 1×"),
            ReportLine(name: "CreateSession round trip, p50", figure: creates.median.formatted,
                       baseline: ping.formatted + " Peer.Ping", ratio: creates.median / ping, budget: "≈ 1×"),
        ]
    }

    // MARK: Scale, memory and idle wake-ups

    /// The daemon's memory and its CPU time per server event with few streams and sessions and with
    /// `streams` streams and `sessions` sessions, and its wake-ups while idle at that scale.
    static func scale(streams: Int, sessions: Int, events: Int) throws -> [ReportLine] {
        let server = try SoundServer(.pulseaudio)
        defer { server.stop() }
        let sinks = (0..<8).map { "bench_sink_\($0)" }
        for sink in sinks { try server.addSink(name: sink, description: sink) }
        let daemon = try BridgeDaemon(server: server)
        defer { daemon.terminate() }
        let figures = ProcessFigures(pid: daemon.process.pid)
        let probe = try StreamProbe(address: server.address)
        defer { probe.close() }

        figures.waitUntilQuiet()
        let idleMemory = figures.residentBytes
        try probe.openCorkedStreams(connections: 1, streamsEach: 10, sinks: sinks)
        var clients = [try BusClient(address: server.busAddress!)]
        _ = try clients[0].createSession("bench-few")
        let target = probe.streams.values.filter { $0.properties["application.name"] == "bench-client-0" }.map(\.index).min()!
        let few = try cpuPerEvent(figures, probe, stream: target, events: events)

        let connections = (streams - 10 + 49) / 50
        try probe.openCorkedStreams(connections: connections, streamsEach: 50, sinks: sinks)
        let created = ContinuousClock.now
        for number in 1..<sessions {
            if number % 32 == 0 { clients.append(try BusClient(address: server.busAddress!)) }
            let session = try clients.last!.createSession("bench-\(number)")
            try clients.last!.setCategory(session.path, "ambient")
            try clients.last!.setActive(session.path, true)
        }
        let sessionTime = (ContinuousClock.now - created) / Double(sessions - 1)
        figures.waitUntilQuiet()
        let scaledMemory = figures.residentBytes
        let many = try cpuPerEvent(figures, probe, stream: target, events: events)

        let idleSeconds = 5.0
        let serverFigures = ProcessFigures(pid: server.serverPID!)
        let (bridgeBefore, serverBefore) = (figures.contextSwitches, serverFigures.contextSwitches)
        usleep(UInt32(idleSeconds * 1_000_000))
        let bridgeWakeups = Double(figures.contextSwitches - bridgeBefore) / idleSeconds
        let serverWakeups = Double(serverFigures.contextSwitches - serverBefore) / idleSeconds

        let total = probe.streams.count
        func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }
        return [
            ReportLine(name: "resident memory, \(total) streams and \(sessions) sessions", figure: megabytes(scaledMemory),
                       baseline: megabytes(idleMemory) + " idle", ratio: Double(scaledMemory) / Double(idleMemory),
                       budget: "≤ 30 MB"),
            ReportLine(name: "CPU per stream event, \(total) streams and \(sessions) sessions", figure: many.formatted,
                       baseline: few.formatted + " at 10 streams", ratio: many / few, budget: "independent (≈ 1×)"),
            ReportLine(name: "CreateSession + SetCategory + SetActive, at up to \(sessions) sessions", figure: sessionTime.formatted,
                       baseline: "–", ratio: nil, budget: "–"),
            ReportLine(name: "wake-ups per second while idle, at that scale", figure: String(format: "%.1f", bridgeWakeups),
                       baseline: String(format: "%.1f pulseaudio", serverWakeups), ratio: nil, budget: "0"),
        ]
    }

    /// The daemon's CPU time per volume change of one stream: the median of five batches of `events / 5`
    /// changes (a batch that met a burst of other work on the machine does not decide the figure).
    private static func cpuPerEvent(_ figures: ProcessFigures, _ probe: StreamProbe, stream: UInt32, events: Int) throws -> Duration {
        var batches = Samples()
        for _ in 0..<5 {
            figures.waitUntilQuiet()
            let before = figures.cpuNanoseconds
            for number in 0..<events / 5 {
                // One change at a time, so that the server reports each one.
                let volume: UInt32 = number % 2 == 0 ? 0x8000 : 0x9000
                probe.setVolume(of: stream, volume)
                _ = try probe.stamp("the volume set", when: { $0[stream]?.volume.first == volume })
            }
            figures.waitUntilQuiet()
            batches.append(.nanoseconds(Int64(figures.cpuNanoseconds - before) / Int64(events / 5)))
        }
        return batches.median
    }
}
