// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import DBusKit
import Foundation

/// R3 and R5: the sound server restarting under the bridge, and other people's sessions.
extension SoakRuns {
    /// R3: `cycles` restarts of the sound server (`pulseaudio` or `pipewire-pulse`) under the bridge,
    /// every other one after a pause of ``restartPause`` (as systemd or a user restarts a server) and the
    /// others at once; a connected client hears MediaServicesWereLost, then Reset, each time. On PipeWire
    /// 1.4, then half as many restarts of WirePlumber alone (the server stays, so nothing is lost).
    /// Figures: the time from the new server accepting clients on its socket to Reset at the client,
    /// for each kind of restart (budget: p50 within 100 ms); afterwards a call still interrupts music.
    public static func serverRestarts(_ kind: SoundServerKind, cycles: Int) throws -> SoakResult {
        let rig = try SoakRig(kind)
        defer { rig.stop() }
        var result = SoakResult(run: "R3 server restarts", stack: kind, cycles: cycles)
        let app = try rig.client()
        let music = try rig.session(app, "soak-music", "playback").path
        var resetTimes: [Bool: [Duration]] = [false: [], true: []]
        for cycle in 1...cycles {
            let paused = cycle % 2 == 0
            app.forgetSignals()
            rig.server.killServer()
            guard timeUntil(timeout: .seconds(15), { !app.signals("MediaServicesWereLost", from: music).isEmpty }) != nil else {
                result.failures.append("restart \(cycle): no MediaServicesWereLost")
                try rig.server.restartServer()
                continue
            }
            if paused { Thread.sleep(forTimeInterval: Double(restartPause.components.seconds) + Double(restartPause.components.attoseconds) / 1e18) }
            // The client reads its signals while the harness restarts the server (on PipeWire that
            // includes adding the simulated devices), so a signal is timed when it arrives.
            let accepting = SocketAcceptance(path: String(rig.server.address.dropFirst("unix:".count)))
            let restart = BackgroundWork { try rig.server.restartServer() }
            let reset = timeUntil(timeout: .seconds(15)) { !app.signals("MediaServicesWereReset", from: music).isEmpty }
            let acceptedAt = accepting.stop()
            try restart.wait()
            if reset != nil, let acceptedAt, let resetAt = app.signals("MediaServicesWereReset", from: music).first?.receivedAt {
                resetTimes[paused]?.append(resetAt - acceptedAt)
            } else {
                result.failures.append("restart \(cycle): no MediaServicesWereReset")
            }
            let order = app.signals.filter { $0.path == music && $0.member.hasPrefix("MediaServices") }.map(\.member)
            if order != ["MediaServicesWereLost", "MediaServicesWereReset"] {
                result.failures.append("restart \(cycle): signals \(order)")
            }
        }
        for (paused, times) in resetTimes.sorted(by: { !$0.key && $1.key }) where !times.isEmpty {
            let median = times.sorted()[times.count / 2]
            if median > resetBudget {
                result.budgetMisses.append("accepting → Reset \(paused ? "after a pause" : "at once"): p50 \(median) > \(resetBudget)")
            }
        }
        // On PipeWire 1.4, WirePlumber alone restarts too: pipewire-pulse and the bridge's connection
        // stay. (On 0.3.65 a restarted WirePlumber 0.4 never shows a new client's stream again, bridge
        // or not: the run's last check could not be made there.)
        var sessionManagerRestarts = 0
        if kind.hasWirePlumber05 {
            for _ in 1...max(1, cycles / 2) {
                try rig.server.restartWirePlumber()
                sessionManagerRestarts += 1
            }
            if (try? app.property(music, "IsActive")) == nil { result.failures.append("the bridge stopped answering after WirePlumber restarts") }
        }
        // Afterwards the bridge still works: a call interrupts the music on the server.
        try app.setActive(music, true)
        let token = try app.property(music, "StreamToken").stringValue ?? ""
        try rig.server.play(app: "soak-music", properties: ["audiosession.token": token])
        let stream = try rig.server.reportedStream(of: "soak-music")
        let caller = try rig.client()
        _ = try rig.session(caller, "soak-call", "playAndRecord", mode: "voiceChat")
        if timeUntil({ try rig.levels(stream.index)?.mute == true }) == nil {
            result.failures.append("after the restarts a call did not mute the music")
        }
        result.figures = [("accepting → Reset, restarted at once", millisecondsSummary(resetTimes[false] ?? [])),
                          ("after 0.5 s", millisecondsSummary(resetTimes[true] ?? [])),
                          ("WirePlumber restarts", "\(sessionManagerRestarts)"),
                          ("a call interrupts afterwards", result.failures.contains { $0.hasPrefix("after") } ? "no" : "yes")]
        return result
    }

    /// How long a server stays away in R3's paused restarts.
    static let restartPause = Duration.milliseconds(500)
    /// R3's budget: from a server accepting clients to Reset at a client, p50.
    static let resetBudget = Duration.milliseconds(100)

    /// The state-changing calls of a session, with well-formed arguments.
    static let sessionCalls: [(String, [BusValue])] = [
        ("SetCategory", [.string("playback"), .string("default"), .strings([])]), ("SetMode", [.string("default")]),
        ("SetActive", [.bool(true), .strings([])]), ("SetPreferredSampleRate", [.double(44100)]),
        ("SetPreferredIOBufferDuration", [.double(0.01)]), ("SetPreferredInput", [.string("")]),
        ("SetInputGain", [.double(0.5)]), ("OverrideOutputAudioPort", [.string("none")]),
        ("SetPrefersNoInterruptionsFromSystemAlerts", [.bool(true)]), ("SetNowPlayingPlayer", [.string("")]),
        ("RequestRecordPermission", []), ("Release", []),
    ]

    /// R5: in each of `cycles` rounds, another connection makes every state-changing call on a session
    /// that ducks music, and each must be AccessDenied; then the owner's connection closes and the duck
    /// must be undone within 100 ms. Figure: the time from the close to the music at the user's volume.
    public static func otherPeoplesSessions(_ kind: SoundServerKind, cycles: Int) throws -> SoakResult {
        let rig = try SoakRig(kind)
        defer { rig.stop() }
        var result = SoakResult(run: "R5 other people's sessions", stack: kind, cycles: cycles)
        let music = try rig.playingApp("soak-music", role: "music", userVolume: 0xC000).stream
        let intruder = try rig.client()
        var denied = 0, undoTimes: [Duration] = []
        for cycle in 1...cycles {
            var owner: BusClient? = try rig.client()
            let path = try rig.session(owner!, "soak-navigation", "playback", mode: "voicePrompt", options: ["duckOthers"]).path
            if timeUntil({ try rig.levels(music.index)?.volume ?? 0 < 0xC000 }) == nil {
                result.failures.append("round \(cycle): the music was not ducked")
            }
            for (member, arguments) in sessionCalls {
                let error = intruder.errorName(path, BusClient.sessionInterface, member, arguments)
                if error == "io.github.audiosession.Error.AccessDenied" { denied += 1 } else {
                    result.failures.append("round \(cycle): \(member) from another connection answered \(error ?? "success")")
                }
            }
            owner = nil  // the owner's connection closes: its session ends
            if let undone = timeUntil({ try rig.atUserLevels(music.index, 0xC000) }) {
                undoTimes.append(undone)
                if undone > .milliseconds(100) { result.budgetMisses.append("round \(cycle): undone after \(undone) (budget 100 ms)") }
            } else {
                result.failures.append("round \(cycle): the duck was never undone")
            }
        }
        let sessions = try intruder.call(BusClient.manager, BusClient.bridge, "ListSessions").first?.arrayItems?.count ?? -1
        if sessions != 1 { result.failures.append("\(sessions) sessions left, expected the music's policy session alone") }
        result.figures = [("AccessDenied", "\(denied)/\(cycles * sessionCalls.count)"),
                          ("owner gone → undone", millisecondsSummary(undoTimes))]
        return result
    }
}
