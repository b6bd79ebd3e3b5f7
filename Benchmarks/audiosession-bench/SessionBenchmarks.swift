// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation

extension Benchmarks {
    /// What an app's session calls cost with one session and with `sessions` sessions in the bridge:
    /// `CreateSession` alone, and `CreateSession` + `SetCategory` + `SetActive(true)`, against a
    /// `Peer.Ping` round trip to the same daemon measured alongside.
    static func sessionCalls(sessions: Int, calls: Int) throws -> [ReportLine] {
        let server = try SoundServer(.pulseaudio)
        defer { server.stop() }
        let daemon = try BridgeDaemon.settled(on: server)
        defer { daemon.terminate() }
        let few = try measureSessionCalls(server, calls: calls)
        // The other sessions' apps hold them and listen to nothing: the figure is the bridge's, not
        // the bus daemon's copying of every signal to a thousand listeners.
        var owners = [try BusClient(address: server.busAddress!, listening: false)]
        for number in 1..<sessions {
            if number % 32 == 0 { owners.append(try BusClient(address: server.busAddress!, listening: false)) }
            let session = try owners.last!.createSession("bench-\(number)")
            try owners.last!.setCategory(session.path, "ambient")
            try owners.last!.setActive(session.path, true)
        }
        ProcessFigures(pid: daemon.process.pid).waitUntilQuiet()
        let many = try measureSessionCalls(server, calls: calls)
        return [
            ReportLine(name: "CreateSession round trip, 1 session, p50", figure: few.create.median.formatted,
                       baseline: few.ping.median.formatted + " Peer.Ping", ratio: few.create.median / few.ping.median,
                       budget: "≤ 1.5×"),
            ReportLine(name: "CreateSession round trip, \(sessions) sessions, p50", figure: many.create.median.formatted,
                       baseline: few.create.median.formatted + " at 1 session", ratio: many.create.median / few.create.median,
                       budget: "≈ 1× (flat)"),
            ReportLine(name: "create + SetCategory + SetActive, 1 session, p50", figure: few.sequence.median.formatted,
                       baseline: (few.ping.median * 3).formatted + " 3 × Peer.Ping",
                       ratio: few.sequence.median / (few.ping.median * 3), budget: "≤ 1.5×"),
            ReportLine(name: "create + SetCategory + SetActive, \(sessions) sessions, p50", figure: many.sequence.median.formatted,
                       baseline: few.sequence.median.formatted + " at 1 session", ratio: many.sequence.median / few.sequence.median,
                       budget: "≈ 1× (flat)"),
        ]
    }

    /// `calls` times each, from a connection of its own: a ping, a `CreateSession`, and the sequence
    /// create + category + activate (each session released again, untimed).
    private static func measureSessionCalls(_ server: SoundServer, calls: Int) throws
        -> (ping: Samples, create: Samples, sequence: Samples)
    {
        let client = try BusClient(address: server.busAddress!)
        var pings = Samples(), creates = Samples(), sequences = Samples()
        /// Runs `body` and keeps its duration, but for the connection's first call, which warms up.
        func time(_ samples: inout Samples, warm: Bool, _ body: () throws -> Void) rethrows {
            let start = ContinuousClock.now
            try body()
            if warm { samples.append(ContinuousClock.now - start) }
        }
        for number in 0...calls {
            var created = "", sequenced = ""
            try time(&pings, warm: number > 0) { try client.call(BusClient.manager, "org.freedesktop.DBus.Peer", "Ping") }
            try time(&creates, warm: number > 0) { created = try client.createSession("bench-alone-\(number)").path }
            try client.call(created, BusClient.sessionInterface, "Release")
            try time(&sequences, warm: number > 0) {
                sequenced = try client.createSession("bench-sequence-\(number)").path
                try client.setCategory(sequenced, "ambient")
                try client.setActive(sequenced, true)
            }
            try client.call(sequenced, BusClient.sessionInterface, "Release")
        }
        return (pings, creates, sequences)
    }
}
