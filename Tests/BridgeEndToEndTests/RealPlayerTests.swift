// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// An unmodified player nobody here wrote: `mpv` with Debian's `mpv-mpris` plugin, playing a sine tone
/// through libpulse, governed by the shipped media-player policy and observed through `gdbus`.
@Suite("An unmodified player: mpv with its MPRIS plugin", .serialized, .threadOfItsOwn)
struct RealPlayerTests {
    @Test("mpv is paused by a call, plays again after it, and is paused when its headphones go",
          arguments: SoundServerKind.underTest)
    func mpvFollowsCallsAndUnplug(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let server = scenario.server
        let (player, log, _) = try Self.startMPV(server)
        let stream = try server.reportedStream(of: "mpv")
        let client = try scenario.client()
        _ = try ShippedPolicyTests.session(of: "mpv", client, log: log)
        try Self.callPausesAndResumes(player, stream, client, scenario)

        func routeChanges() -> [[String: Any]] {
            scenario.daemon.records.filter { $0["event"] as? String == "route.change" && $0["app"] as? String == "mpv" }
        }
        let headphones = try server.plug(.wiredHeadphones)
        try server.move(sinkInput: stream.index, to: "headphones")
        try waitUntil("the bridge to see mpv on the headphones (route changes: \(routeChanges()))") {
            routeChanges().contains { "\($0["currentRoute"] ?? "")".contains("headphones") }
        }
        for module in headphones { try server.unloadModule(module) }
        try waitUntil("mpv to pause when its headphones go (status \(player.status))") { player.status == "Paused" }
    }
}

extension RealPlayerTests {
    @Test("mpv as a native PipeWire client (--ao=pipewire) is governed as a media player: a call pauses it, and it plays after",
          arguments: SoundServerKind.underTest([.pipewire, .pipewire14, .pipewire16]))
    func nativePipeWireMPV(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let (player, log, mpv) = try Self.startMPV(scenario.server, output: "pipewire")
        let stream = try scenario.server.reportedStream(of: "mpv")
        let client = try scenario.client()
        let session = try ShippedPolicyTests.session(of: "mpv", client, log: log)
        #expect(try client.property(session, "Category") == .string("playback"))
        try Self.callPausesAndResumes(player, stream, client, scenario)
        let explained = try AppsYouRunTests.explain(mpv, scenario.server)
        #expect(explained.contains("media-player, because its binary 'mpv' is in [match] binaries"), "\(explained)")
    }

    /// A call of `client`'s pauses mpv through MPRIS; when it ends, mpv plays again with its stream unmuted.
    static func callPausesAndResumes(_ player: MPRISPlayer, _ stream: ReportedStream, _ client: BusClient,
                                     _ scenario: Scenario) throws {
        // What the bridge decided, for a failure to name: the interruptions, and the players paused and played.
        func decisions() -> [[String: Any]] {
            scenario.daemon.records.filter {
                $0["event"] as? String == "interruption" || ["pause", "play"].contains($0["action"] as? String)
            }
        }
        let call = try client.createSession("call")
        try client.setCategory(call.path, "playAndRecord", mode: "voiceChat")
        try client.setActive(call.path, true)
        try waitUntil("the call to pause mpv (status \(player.status))") { player.status == "Paused" }
        try client.setActive(call.path, false, options: ["notifyOthersOnDeactivation"])
        try waitUntil("mpv to play after the call (status \(player.status); the bridge: \(decisions()))") { player.status == "Playing" }
        try waitUntil("mpv's stream unmuted on the server") { try scenario.server.reportedStream(index: stream.index)?.mute == false }
    }

    /// After mpv's interruption ended, the bridge did not play it (a play would be decided and recorded
    /// in the step that ends the interruption), and it is paused.
    @discardableResult
    static func expectNotPlayedAgain(_ scenario: Scenario, _ player: MPRISPlayer) throws -> [String: Any] {
        var ended: [String: Any] = [:]
        try waitUntil("mpv's interruption to end") {
            ended = scenario.daemon.records.last {
                $0["event"] as? String == "interruption" && $0["type"] as? String == "ended" && $0["app"] as? String == "mpv"
            } ?? [:]
            return !ended.isEmpty
        }
        let plays = scenario.daemon.records.filter {
            $0["event"] as? String == "action" && $0["action"] as? String == "play" && "\($0["session"] ?? "")" == "\(ended["session"] ?? "-")"
        }
        #expect(plays.isEmpty, "the bridge played mpv again: \(plays)")
        #expect(player.status == "Paused")
        return ended
    }

    /// Starts mpv playing a sine tone with its MPRIS plugin, not as a child of this test (whose
    /// connection owns the sessions tests make), and waits until it says it plays.
    /// `output` is mpv's audio output: `pulse` (libpulse) or `pipewire` (a native PipeWire client).
    /// `playlist` is what it plays, in order (a tone by default).
    static func startMPV(_ server: SoundServer, output: String = "pulse", playlist: [String] = ["av://lavfi:sine=frequency=440"])
        throws -> (player: MPRISPlayer, log: String, pid: Int32)
    {
        let log = server.root + "/logs/mpv.log"
        let pid = try server.spawnDetached("mpv", [
            "--no-config", "--no-video", "--no-terminal", "--ao=\(output)", "--script=/usr/lib/mpv-mpris/mpris.so",
        ] + playlist, log: log)
        let player = MPRISPlayer(name: "org.mpris.MediaPlayer2.mpv", server: server)
        try waitUntil("mpv to play (its output: \(textSoFar(log)))", timeout: .seconds(20)) { player.status == "Playing" }
        return (player, log, pid)
    }
}

/// An MPRIS player on the private bus, read with `gdbus` as any desktop client would.
struct MPRISPlayer {
    var name: String
    var server: SoundServer

    /// `PlaybackStatus`, or "" while the player is not on the bus.
    var status: String {
        let result = try? TestProcess.run("gdbus", [
            "call", "--session", "--dest", name, "--object-path", "/org/mpris/MediaPlayer2",
            "--method", "org.freedesktop.DBus.Properties.Get", "org.mpris.MediaPlayer2.Player", "PlaybackStatus",
        ], environment: server.environment)
        guard let result, result.status == 0 else { return "" }
        return ["Playing", "Paused", "Stopped"].first { result.output.contains("'\($0)'") } ?? ""
    }

    /// Calls a method of `org.mpris.MediaPlayer2.Player` (`Play`, `Pause`…), as the user's media keys do.
    func send(_ method: String) throws {
        let result = try TestProcess.run("gdbus", [
            "call", "--session", "--dest", name, "--object-path", "/org/mpris/MediaPlayer2",
            "--method", "org.mpris.MediaPlayer2.Player.\(method)",
        ], environment: server.environment)
        guard result.status == 0 else { throw HarnessError("\(method) to \(name): \(result.output)") }
    }
}
