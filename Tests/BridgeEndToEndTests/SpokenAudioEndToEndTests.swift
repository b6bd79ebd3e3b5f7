// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// Real programs, unmodified: mpv with its MPRIS plugin as a podcast player (a copy of its binary named
/// `gnome-podcasts`, which the shipped audiobook policy names) paused while speech-dispatcher speaks; mpv
/// left paused after a call when the user played and paused it, or skipped a track, during the call;
/// and a never-resume policy of the user's own.
@Suite("Spoken audio paused, and resuming only what the user wants, with real programs", .serialized, .threadOfItsOwn)
struct SpokenAudioEndToEndTests {
    /// Starts a copy of mpv named `binary` playing `file` in a loop, with its MPRIS plugin.
    static func startMPV(named binary: String, playing file: String, _ server: SoundServer) throws -> MPRISPlayer {
        let path = server.root + "/bin/" + binary
        if !FileManager.default.fileExists(atPath: path) { try ProgramFiles.copy("mpv", to: path) }
        let log = server.root + "/logs/\(binary).log"
        _ = try server.spawnDetached(path, ["--no-config", "--no-video", "--no-terminal", "--ao=pulse", "--loop-file=inf",
                                            "--script=/usr/lib/mpv-mpris/mpris.so", file], log: log)
        let player = MPRISPlayer(name: "org.mpris.MediaPlayer2.mpv", server: server)
        try waitUntil("\(binary) to play (its output: \(textSoFar(log)))", timeout: .seconds(20)) { player.status == "Playing" }
        return player
    }

    @Test("mpv as a podcast player is paused, not ducked, while speech-dispatcher speaks, and plays after the last word",
          arguments: SoundServerKind.underTest)
    func podcastPausedForSpeech(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let server = scenario.server
        let episode = server.root + "/episode.wav"
        let spoken = try TestProcess.run("espeak-ng", ["-w", episode, "This week on the podcast: a long talk about sound on Linux."],
                                         environment: server.environment)
        #expect(spoken.status == 0, "\(spoken.output)")
        let player = try Self.startMPV(named: "gnome-podcasts", playing: episode, server)
        let stream = try server.reportedStream(of: "mpv")
        let client = try scenario.client()
        try waitUntil("the podcast player under the audiobook policy") {
            (try scenario.snapshot(client)["sessions"] as? [[String: Any]] ?? [])
                .contains { $0["policy"] as? String == "audiobook" && $0["active"] as? Bool == true }
        }
        let volume = try server.reportedStream(index: stream.index)?.volume

        let speechd = try server.spawn("speech-dispatcher", ["--run-single", "--timeout", "0"])
        let socket = server.runtimeDirectory + "/speech-dispatcher/speechd.sock"
        try waitUntil("speech-dispatcher's socket (it printed: \(speechd.output.suffix(500)))") { unixSocketAccepts(socket) }
        let say = try server.spawn("spd-say", ["--wait", "In two hundred metres, turn left. Then keep right at the fork."])
        try waitUntil("the podcast paused while the voice speaks (status \(player.status), spd-say: \(say.output))") {
            player.status == "Paused"
        }
        // Paused, not ducked: while the voice speaks the server has the stream muted at its own volume
        // (a duck would hold it lowered and unmuted).
        try waitUntil("the podcast's stream muted at its own volume while the voice speaks") {
            try scenario.muted(stream) == true && server.reportedStream(index: stream.index)?.volume == volume
        }
        #expect(say.isRunning, "the voice still speaks")
        try waitUntil("spd-say to finish", timeout: .seconds(30)) { !say.isRunning }
        // A failure shows the bridge's last records: the interruption's end says whether, and how, the
        // user was taken to have taken the podcast back (`takenBack`).
        try scenario.waitUntil("the podcast playing again after the last word (status \(player.status))") {
            player.status == "Playing"
        }
        try waitUntil("its stream unmuted, at its volume") {
            try scenario.muted(stream) == false && server.reportedStream(index: stream.index)?.volume == volume
        }
    }

    @Test("a navigation prompt from GStreamer, its stream open after the words, ducks the music only while it sounds",
          arguments: SoundServerKind.underTest)
    func navigationFollowsSound(kind: SoundServerKind) throws {
        let bridged = try BridgedServer(kind)
        defer { bridged.stop() }
        let server = bridged.server
        let (_, musicVolume) = try SoundNotPresenceTests.music(bridged)
        // espeak-ng's prompt, then eight seconds of silence in the same file: the stream stays open.
        let words = server.root + "/prompt-words.wav", prompt = server.root + "/prompt.wav"
        let spoken = try TestProcess.run("espeak-ng", ["-w", words, "In two hundred metres, turn left."], environment: server.environment)
        #expect(spoken.status == 0, "\(spoken.output)")
        let padded = try TestProcess.run("/usr/bin/python3", ["-c", """
            import sys, wave
            source = wave.open(sys.argv[1]); params = source.getparams(); frames = source.readframes(params.nframes)
            out = wave.open(sys.argv[2], "wb"); out.setparams(params)
            out.writeframes(frames + bytes(params.sampwidth * params.nchannels * params.framerate * 8)); out.close()
            """, words, prompt], environment: server.environment)
        #expect(padded.status == 0, "\(padded.output)")
        let maps = server.root + "/bin/gnome-maps"
        try ProgramFiles.copy("gst-launch-1.0", to: maps)
        let pipeline = try server.spawn(maps, ["-q", "filesrc", "location=\(prompt)", "!", "wavparse", "!", "audioconvert", "!",
                                               "audioresample", "!", "pulsesink"])
        let user = SoundNotPresenceTests.userVolume
        try bridged.waitUntil("the music ducked while the prompt speaks (\(pipeline.output))") { try musicVolume().map { $0 < user } == true }
        try bridged.waitUntil("the music back at the user's volume after the words") { try musicVolume() == user }
        #expect(pipeline.isRunning, "the prompt's stream is still open, in its silence")
        let json = try BusClient(address: server.busAddress!, listening: false)
            .call(BusClient.manager, BusClient.bridge, "Snapshot")[0].stringValue ?? "{}"
        let snapshot = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]
        let sessions = snapshot["sessions"] as? [[String: Any]] ?? []
        #expect(sessions.contains { $0["policy"] as? String == "navigation" }, "GStreamer named gnome-maps is a navigation prompt: \(json)")
    }

    /// mpv playing `playlist`, a call that paused it, and `playerctl` for it.
    struct PausedByACall {
        let player: MPRISPlayer
        let stream: ReportedStream
        let client: BusClient
        /// mpv's policy session.
        let session: String
        let call: (path: String, token: String)

        init(_ scenario: Scenario, playlist: [String] = ["av://lavfi:sine=frequency=440"]) throws {
            let (player, log, _) = try RealPlayerTests.startMPV(scenario.server, playlist: playlist)
            self.player = player
            stream = try scenario.server.reportedStream(of: "mpv")
            client = try scenario.client()
            session = try ShippedPolicyTests.session(of: "mpv", client, log: log)
            call = try client.createSession("call")
            try client.setCategory(call.path, "playAndRecord", mode: "voiceChat")
            try client.setActive(call.path, true)
            try waitUntil("the call to pause mpv (status \(player.status))") { player.status == "Paused" }
        }

        func playerctl(_ command: String) throws {
            let result = try TestProcess.run("playerctl", ["--player=mpv", command], environment: player.server.environment)
            #expect(result.status == 0, "playerctl \(command): \(result.output)")
        }

        /// Ends the call as the caller would, asking that others resume, and checks that the bridge
        /// did not play mpv again (the user's, or a policy's, choice), and that the event log's `ended`
        /// says how the user took it back, one of `takenBack` (nil: the user did not, the policy chose).
        func endCallExpectingNoResume(_ scenario: Scenario, takenBack: Set<String>? = nil) throws {
            try client.setActive(call.path, false, options: ["notifyOthersOnDeactivation"])
            let ended = try RealPlayerTests.expectNotPlayedAgain(scenario, player)
            let said = ended["takenBack"] as? String
            #expect(takenBack.map { said.map($0.contains) ?? false } ?? (said == nil), "\(ended)")
        }
    }

    @Test("mpv paused by a call, then played and paused by the user during it, stays paused after the call",
          arguments: SoundServerKind.underTest)
    func userPausedDuringTheCall(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let paused = try PausedByACall(scenario)
        try paused.playerctl("pause")
        try paused.playerctl("play")
        try waitUntil("the bridge to see mpv play again") {
            try scenario.bridgeView(of: paused.stream.index, paused.client)?["corked"] as? Bool == false
        }
        try paused.playerctl("pause")
        try waitUntil("mpv paused by the user (status \(paused.player.status))") { paused.player.status == "Paused" }
        try paused.endCallExpectingNoResume(scenario, takenBack: ["its stream played again during the interruption",
                                                                   "its player said Playing during the interruption"])
    }

    /// The skip shows only over MPRIS: mpv stays paused and its stream does not play. The test follows
    /// mpv's signals with `gdbus monitor`; once it has seen the new track announced, the bridge has
    /// that signal too, ahead of the call's end (the bus passes messages on in the order it takes them).
    @Test("mpv paused by a call and moved to its next track by the user during it stays paused after the call",
          arguments: SoundServerKind.underTest)
    func userSkippedDuringTheCall(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let next = "av://lavfi:sine=frequency=660"
        let paused = try PausedByACall(scenario, playlist: ["av://lavfi:sine=frequency=440", next])
        let signals = scenario.server.root + "/logs/mpv-signals.log"
        _ = try scenario.server.spawnDetached("gdbus", ["monitor", "--session", "--dest", paused.player.name,
                                                        "--object-path", "/org/mpris/MediaPlayer2"], log: signals)
        try waitUntil("gdbus monitor to follow mpv (\(textSoFar(signals)))") { textSoFar(signals).contains("is owned by") }
        try paused.playerctl("next")
        try waitUntil("mpv to announce its next track (\(textSoFar(signals)))") {
            textSoFar(signals).split(separator: "\n").contains { $0.contains("PropertiesChanged") && $0.contains(next) }
        }
        #expect(paused.player.status == "Paused", "a skip keeps mpv paused")
        try paused.endCallExpectingNoResume(scenario, takenBack: ["its player moved to another track during the interruption"])
    }

    /// Under the shipped media-player policy the same call plays mpv again (`RealPlayerTests`).
    @Test("an app under the user's never-resume policy stays paused after a call",
          arguments: SoundServerKind.underTest)
    func neverResume(kind: SoundServerKind) throws {
        let server = try SoundServer(kind)
        let folder = server.root + "/policies"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for file in try FileManager.default.contentsOfDirectory(atPath: BridgeDaemon.policiesFolder) where file.hasSuffix(".toml") {
            try FileManager.default.copyItem(atPath: BridgeDaemon.policiesFolder + "/" + file, toPath: folder + "/" + file)
        }
        try """
            schema = 1
            description = "mpv, never played again after an interruption (the user's own override)"
            [session]
            category = "playback"
            [interruption]
            resume = "never"
            [mpris]
            use = true
            [match]
            binaries = ["mpv"]
            precedence = 900
            """.write(toFile: folder + "/mpv-never-resume.toml", atomically: true, encoding: .utf8)
        let scenario = try Scenario(server: server, daemonArguments: ["--policies", folder])
        defer { scenario.stop() }
        let paused = try PausedByACall(scenario)
        #expect(try paused.client.property(paused.session, "AppId") == .string("mpv"))
        try paused.endCallExpectingNoResume(scenario)
    }
}
