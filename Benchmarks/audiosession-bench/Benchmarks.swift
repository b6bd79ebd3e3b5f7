// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import DBusKit
import Foundation
import PulseAudioClient

/// The benchmarks of DESIGN.md §3's performance budget. Each measures the bridge and, in the same
/// run, a baseline it is compared with.
enum Benchmarks {
    /// "1 music stream", "10 music streams": how the report names a count of music streams.
    static func musicStreams(_ count: Int) -> String { "\(count) music stream\(count == 1 ? "" : "s")" }

    // MARK: Device removal and method calls

    /// From the server reporting a device removed to the RouteChange signal arriving at a client, and a
    /// method call's round trip, each against a `Peer.Ping` round trip to the same daemon.
    static func routeChangeAndCalls(rounds: Int, calls: Int) throws -> [ReportLine] {
        let server = try SoundServer(.pulseaudio)
        defer { server.stop() }
        let daemon = try BridgeDaemon.settled(on: server)
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

        var pings = Samples(), gets = Samples(), lists = Samples(), activations = Samples()
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
        let daemon = try BridgeDaemon.settled(on: server)
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
        for number in 1..<sessions {
            if number % 32 == 0 { clients.append(try BusClient(address: server.busAddress!)) }
            let session = try clients.last!.createSession("bench-\(number)")
            try clients.last!.setCategory(session.path, "ambient")
            try clients.last!.setActive(session.path, true)
        }
        figures.waitUntilQuiet()
        let scaledMemory = figures.residentBytes
        let many = try cpuPerEvent(figures, probe, stream: target, events: events)

        // The desktop indicator follows the bridge; once it has shown this state it sleeps.
        let indicator = try server.spawn(BridgeDaemon.buildDirectory + "/audiosession-indicator", [])
        defer { _ = indicator.stop() }
        let indicatorFigures = ProcessFigures(pid: indicator.pid)
        try waitUntil("the indicator on the bus (\(indicator.output))") {
            try TestProcess.run("busctl", ["--address=\(server.busAddress!)", "status", "org.kde.StatusNotifierItem-\(indicator.pid)-1"],
                                environment: server.environment).status == 0
        }
        ProcessFigures.waitUntilQuiet([figures, indicatorFigures], .milliseconds(300), looking: .milliseconds(50), timeout: .seconds(120))
        let indicatorMemory = indicatorFigures.residentBytes

        let idleSeconds = 5.0
        let serverFigures = ProcessFigures(pid: server.serverPID!)
        let (bridgeBefore, serverBefore, indicatorBefore) =
            (figures.contextSwitches, serverFigures.contextSwitches, indicatorFigures.contextSwitches)
        usleep(UInt32(idleSeconds * 1_000_000))
        let bridgeWakeups = Double(figures.contextSwitches - bridgeBefore) / idleSeconds
        let serverWakeups = Double(serverFigures.contextSwitches - serverBefore) / idleSeconds
        let indicatorWakeups = Double(indicatorFigures.contextSwitches - indicatorBefore) / idleSeconds

        let total = probe.streams.count
        func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }
        return [
            ReportLine(name: "resident memory, \(total) streams and \(sessions) sessions", figure: megabytes(scaledMemory),
                       baseline: megabytes(idleMemory) + " idle", ratio: Double(scaledMemory) / Double(idleMemory),
                       budget: "≤ 30 MB"),
            ReportLine(name: "CPU per stream event, \(total) streams and \(sessions) sessions", figure: many.formatted,
                       baseline: few.formatted + " at 10 streams", ratio: many / few, budget: "independent (≈ 1×)"),
            ReportLine(name: "wake-ups per second while idle, at that scale", figure: String(format: "%.1f", bridgeWakeups),
                       baseline: String(format: "%.1f pulseaudio", serverWakeups), ratio: nil, budget: "0"),
            ReportLine(name: "indicator: wake-ups per second while nothing changes", figure: String(format: "%.1f", indicatorWakeups),
                       baseline: String(format: "%.1f the bridge", bridgeWakeups), ratio: nil, budget: "0"),
            ReportLine(name: "indicator: resident memory, showing that scale", figure: megabytes(indicatorMemory),
                       baseline: megabytes(scaledMemory) + " the bridge", ratio: Double(indicatorMemory) / Double(scaledMemory),
                       budget: "≤ 30 MB"),
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

extension BridgeDaemon {
    /// The bridge as it runs once its server has stayed up: its connection shares the server's memory.
    /// A bridge waits 30 s for that (see `ServerAdapter+SharedMemory`); the benchmarks' bridges take it
    /// up as soon as they have read the server, and are measured once they have.
    static func settled(on server: SoundServer, arguments: [String] = []) throws -> BridgeDaemon {
        let daemon = try BridgeDaemon(server: server, arguments: ["--shared-memory-after", "0"] + arguments)
        do {
            try daemon.waitUntilSharingMemory()
        } catch {
            daemon.terminate()
            throw error
        }
        return daemon
    }
}
