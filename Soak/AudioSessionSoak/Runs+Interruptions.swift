// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import DBusKit
import Foundation

/// R1 and R2: the bridge killed while it ducks, mutes and fades, and the race of short calls.
extension SoakRuns {
    /// R1: `cycles` SIGKILLs of the bridge at a random moment while a navigation prompt ducks and a
    /// call mutes (fading) two apps; restarted each time. Figures: the apps back at their own levels,
    /// the time from the restart to that, and a fresh stream of each app starting at the user's levels.
    public static func kills(_ kind: SoundServerKind, cycles: Int) throws -> SoakResult {
        let rig = try SoakRig(kind)
        defer { rig.stop() }
        var result = SoakResult(run: "R1 kills", stack: kind, cycles: cycles)
        // A media player and a game (which mixes): neither interrupts the other.
        let apps = [("soak-music", UInt32(0xC000), "music"), ("soak-game", UInt32(0xA000), "game")]
        var victims = try apps.map { try rig.playingApp($0.0, role: $0.2, userVolume: $0.1) }
        var restoreTimes: [Duration] = []
        for cycle in 0..<cycles {
            let client = try rig.client()
            let ducks = Bool.random(), mutes = !ducks || Bool.random()
            if ducks { _ = try? rig.session(client, "soak-navigation", "playback", mode: "voicePrompt", options: ["duckOthers"]) }
            if mutes { _ = try? rig.session(client, "soak-call", "playAndRecord", mode: "voiceChat") }
            usleep(UInt32.random(in: 0...60_000))  // before, during or after the fade
            rig.daemon.kill9()
            _ = rig.daemon.process.waitUntilExit()
            try rig.daemon.restart()
            let restored = timeUntil {
                try zip(victims, apps).allSatisfy { try rig.atUserLevels($0.0.stream.index, $0.1.1) }
            }
            if let restored { restoreTimes.append(restored) } else {
                let seen = zip(victims, apps).map { (try? rig.levels($0.0.stream.index)).map { "\($0!)" } ?? "?" }
                let music = "sink-input/\(victims[0].stream.index)"
                let recent = rig.daemon.records.filter { ($0["stream"] as? String) == music || $0["event"] as? String == "server.reset" }
                    .suffix(6).map { "\($0["event"] ?? "") \($0["action"] ?? "") \($0["why"] ?? "")" }
                result.failures.append("cycle \(cycle): not back at the user's levels after the restart: \(seen); last records: \(recent)")
            }
        }
        // The server's memory: a fresh stream of each app starts at the user's levels.
        var fresh = 0
        for (index, app) in apps.enumerated() {
            kill(victims[index].pid, SIGKILL)
            _ = try? waitUntil("\(app.0) gone") { try rig.server.reportedStream(index: victims[index].stream.index) == nil }
            let pid = try rig.server.playDetached(app: app.0, role: app.2)
            let stream = try rig.server.reportedStream(of: app.0)
            victims[index] = (stream, pid)
            if try rig.levels(stream.index)?.volume == app.1 { fresh += 1 } else {
                result.failures.append("a fresh stream of \(app.0) started at \(String(describing: try rig.levels(stream.index))), not the user's \(app.1)")
            }
        }
        result.figures = [("restored", "\(restoreTimes.count)/\(cycles)"), ("restart → restored", millisecondsSummary(restoreTimes)),
                          ("fresh streams at the user's levels", "\(fresh)/\(apps.count)")]
        return result
    }

    /// R2: `cycles` phone-role streams living 0–5 ms next to playing music; none may leave the music
    /// silenced. Checked every 100 calls and at the end, once the calls are gone.
    public static func corkRace(_ kind: SoundServerKind, cycles: Int) throws -> SoakResult {
        let rig = try SoakRig(kind)
        defer { rig.stop() }
        var result = SoakResult(run: "R2 cork race", stack: kind, cycles: cycles)
        let music = try rig.playingApp("soak-music", role: "music", userVolume: 0xC000).stream
        var settleTimes: [Duration] = []
        func check(_ when: String) {
            let noCalls = timeUntil { try !rig.server.streams().contains { ReportedStream($0)?.app == "soak-call" } }
            let settled = timeUntil { try rig.atUserLevels(music.index, 0xC000) }
            if noCalls == nil || settled == nil {
                result.failures.append("\(when): the music is left at \(String(describing: try? rig.levels(music.index)))")
            } else if let settled { settleTimes.append(settled) }
        }
        for cycle in 1...cycles {
            let call = try rig.server.play(app: "soak-call", role: "phone")
            usleep(UInt32.random(in: 0...5_000))
            call.kill9()
            _ = call.waitUntilExit()
            if cycle % 100 == 0 || cycle == cycles { check("after \(cycle) calls") }
        }
        result.figures = [("checks", "\(settleTimes.count + result.failures.count)"),
                          ("calls gone → music back", millisecondsSummary(settleTimes))]
        return result
    }
}

/// The reliability runs of `make soak` (DESIGN §4): each starts its own server and bridge, stops
/// by itself and cleans up, and returns what it found.
public enum SoakRuns {}
