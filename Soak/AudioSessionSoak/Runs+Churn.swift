// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import DBusKit
import Foundation

/// R7: streams and devices coming and going while sessions are active.
extension SoakRuns {
    /// R7: `cycles` cycles of 20 streams (players, games, calls, recorders) appearing and vanishing
    /// while a device is plugged or unplugged, with a music and a navigation session active. At the
    /// end the bridge's view (Snapshot) must equal the server's, and its memory may grow by less than
    /// 2 MB after the first tenth.
    public static func churn(_ kind: SoundServerKind, cycles: Int, streamsPerCycle: Int = 20) throws -> SoakResult {
        let rig = try SoakRig(kind)
        defer { rig.stop() }
        var result = SoakResult(run: "R7 churn", stack: kind, cycles: cycles)
        // The sessions' owner listens to nothing: a connection that never reads would fill the bus's
        // queue with the run's signals until the bus drops it.
        let app = try BusClient(address: rig.server.busAddress!, listening: false)
        _ = try rig.session(app, "soak-music", "playback")
        _ = try rig.session(app, "soak-navigation", "playback", mode: "voicePrompt", options: ["duckOthers", "mixWithOthers"])
        let kinds: [(String, String?, Bool)] = [("soak-player", "music", false), ("soak-game", "game", false),
                                                ("soak-call", "phone", false), ("soak-recorder", nil, true), ("soak-other", nil, false)]
        var plugged: [String] = []
        var warmRSS = 0
        for cycle in 1...cycles {
            guard rig.server.serverPID.map({ kill($0, 0) == 0 }) ?? false else {
                result.failures.append("the sound server died at cycle \(cycle): \(rig.serverLogTail())")
                return result
            }
            if cycle == max(1, cycles / 10) { warmRSS = ProcessFigures(pid: rig.daemon.process.pid).residentBytes / 1024 }
            let clients = try (0..<streamsPerCycle).map { index in
                let (name, role, record) = kinds[index % kinds.count]
                return try rig.server.play(app: "\(name)-\(index)", role: role, record: record)
            }
            // Paced by the server, not by the clock: the cycle goes on once its streams are there (or
            // after a second), so that connections never pile up faster than the server accepts them.
            _ = timeUntil(timeout: .seconds(1)) {
                try rig.server.streams().count + rig.server.streams(record: true).count >= streamsPerCycle
            }
            if plugged.isEmpty { plugged = try rig.server.plug(.usbHeadset) } else {
                for module in plugged { try rig.server.unloadModule(module) }
                plugged = []
            }
            usleep(UInt32.random(in: 0...20_000))
            for client in clients { client.kill9() }
            for client in clients { _ = client.waitUntilExit() }
        }
        let endRSS = ProcessFigures(pid: rig.daemon.process.pid).residentBytes / 1024
        // The bridge's view equals the server's once the last changes have reached it.
        var last = ""
        if timeUntil(timeout: .seconds(15), {
            do {
                let (bridge, server) = try views(rig, app)
                last = "bridge \(bridge), server \(server)"
                return bridge == server
            } catch {
                last = "the views could not be read: \(error)"
                throw error
            }
        }) == nil {
            result.failures.append("the bridge's view differs from the server's: \(last)")
        }
        let growth = endRSS - warmRSS
        if growth >= 2048 { result.budgetMisses.append("the bridge grew by \(growth) kB after warm-up (budget < 2048 kB)") }
        result.figures = [("streams", "\(cycles * streamsPerCycle)"), ("device plugs and unplugs", "\(cycles)"),
                          ("RSS growth after warm-up", "\(growth) kB")]
        return result
    }

    /// The streams and devices as the bridge's Snapshot has them and as the server reports them.
    static func views(_ rig: SoakRig, _ client: BusClient) throws -> (bridge: [String], server: [String]) {
        let json = try client.call(manager, bridge, "Snapshot").first?.stringValue ?? "{}"
        let snapshot = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]
        let bridgeStreams = (snapshot["streams"] as? [[String: Any]] ?? []).compactMap { $0["stream"] as? String }
        let bridgeDevices = (snapshot["devices"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        let serverStreams = try rig.server.streams().compactMap { ($0["index"] as? Int).map { "sink-input/\($0)" } }
            + rig.server.streams(record: true).compactMap { ($0["index"] as? Int).map { "source-output/\($0)" } }
        let serverDevices = try ["sinks", "sources"].flatMap { list in
            try rig.server.pactl(["list", "short", list]).split(separator: "\n").compactMap { line in
                line.split(separator: "\t").dropFirst().first.map(String.init)
            }
        }
        return ((bridgeStreams.sorted() + bridgeDevices.sorted()), (serverStreams.sorted() + serverDevices.sorted()))
    }
}
