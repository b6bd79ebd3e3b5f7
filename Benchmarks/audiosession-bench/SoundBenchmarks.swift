// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation

extension Benchmarks {
    /// What watching streams' sound costs (DESIGN §2, "Sound, not presence"): the CPU time a second of
    /// the bridge and of the server with `streams` playing streams whose sound the bridge watches (a
    /// screen reader's, role `a11y`), against the same number of playing streams it does not watch
    /// (role `music`), each figure per watched stream.
    static func soundWatch(streams: Int, seconds: Double) throws -> [ReportLine] {
        let server = try SoundServer(.pulseaudio)
        defer { server.stop() }
        let daemon = try BridgeDaemon.settled(on: server)
        defer { daemon.terminate() }
        let bridge = ProcessFigures(pid: daemon.process.pid)
        let pulse = ProcessFigures(pid: server.serverPID!)

        /// CPU time a second of the bridge and the server while `role`'s streams play.
        func cpuPerSecond(role: String) throws -> (bridge: Double, server: Double) {
            let players = try (0..<streams).map { try server.play(app: "bench-\(role)-\($0)", role: role) }
            defer { players.forEach { $0.stop() } }
            try waitUntil("the bridge to take the \(role) streams", timeout: .seconds(30)) {
                daemon.records("stream.added").filter { ($0["app"] as? String)?.hasPrefix("bench-\(role)") == true }.count == streams
            }
            bridge.waitUntilQuiet(.milliseconds(500), timeout: .seconds(10))
            let before = (bridge.cpuNanoseconds, pulse.cpuNanoseconds)
            usleep(UInt32(seconds * 1_000_000))
            return (Double(bridge.cpuNanoseconds - before.0) / seconds, Double(pulse.cpuNanoseconds - before.1) / seconds)
        }
        let unwatched = try cpuPerSecond(role: "music")
        let watched = try cpuPerSecond(role: "a11y")
        func perStream(_ total: Double, _ base: Double) -> Double { max(0, total - base) / Double(streams) }
        func share(_ nanoseconds: Double) -> String { String(format: "%.3f %% CPU", nanoseconds / 1e7) }
        return [
            ReportLine(name: "bridge CPU per watched stream (\(streams) streams)", figure: share(perStream(watched.bridge, unwatched.bridge)),
                       baseline: share(unwatched.bridge) + " bridge, \(streams) unwatched",
                       ratio: unwatched.bridge > 0 ? watched.bridge / unwatched.bridge : nil, budget: "–"),
            ReportLine(name: "server CPU per watched stream (\(streams) streams)", figure: share(perStream(watched.server, unwatched.server)),
                       baseline: share(unwatched.server) + " pulseaudio, \(streams) unwatched",
                       ratio: unwatched.server > 0 ? watched.server / unwatched.server : nil, budget: "–"),
        ]
    }
}
