// SPDX-License-Identifier: Apache-2.0
import AudioSessionKit
import AudioSessionPulse
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// Whether the server reports the app's stream corked (nil: no stream).
func corked(_ server: SoundServer, _ app: String) throws -> Bool? {
    try server.streams().compactMap(ReportedStream.init).first { $0.app == app }?.corked
}

/// The example apps, as separate processes making real sound through libpulse, against the bridge
/// and a private server; assertions on the server's stream state (corked) and on what they print.
@Suite("The example apps", .serialized, .threadOfItsOwn)
struct ExampleAppsTests {
    @Test("the music player is interrupted and resumed by a call, paused on unplug, and survives a bridge restart",
          arguments: SoundServerKind.underTest)
    func musicPlayerAndCall(kind: SoundServerKind) throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let daemon = try BridgeDaemon(server: server)
        defer { daemon.terminate() }
        let music = try server.spawn(BridgeDaemon.buildDirectory + "/music-player", [])
        try waitUntil("the music player to play") { music.output.contains("music-player: playing") }
        try waitUntil("its stream to run") { try corked(server, "music-player") == false }

        // A call: the player pauses (corks) and resumes (uncorks) after it.
        let call = try server.spawn(BridgeDaemon.buildDirectory + "/voip-call", ["1"])
        try waitUntil("the call to start") { call.output.contains("voip-call: call started") }
        try waitUntil("the music corked during the call") { try corked(server, "music-player") == true }
        try waitUntil("the call to end") { call.output.contains("voip-call: call ended") }
        try waitUntil("the music playing again") { try corked(server, "music-player") == false }
        #expect(music.output.contains("music-player: playback paused: interruption began"))
        #expect(music.output.contains("music-player: playback resumed: interruption ended with shouldResume"))

        // Headphones pulled: the player pauses.
        let modules = try server.plug(.wiredHeadphones)
        let stream = try server.reportedStream(of: "music-player")
        try server.move(sinkInput: stream.index, to: "headphones")
        try waitUntil("the player told of the route change") { music.output.contains("music-player: route changed") }
        for module in modules { try server.unloadModule(module) }
        try waitUntil("the music corked after the unplug") { try corked(server, "music-player") == true }
        #expect(music.output.contains("music-player: playback paused: the headphones were removed"))

        // The bridge is killed and started again: the session comes back with its category.
        daemon.kill9()
        try waitUntil("the player to hear of the loss") { music.output.contains("media services were lost") }
        try daemon.restart()
        try waitUntil("the player to hear of the reset") {
            music.output.contains("music-player: media services were reset; category playback")
        }
        let client = try BusClient(address: server.busAddress!)
        try waitUntil("the player's session on the new bridge") {
            let sessions = try client.call(BusClient.manager, BusClient.bridge, "ListSessions")[0].arrayItems ?? []
            return try sessions.contains {
                let path = $0.stringValue ?? ""
                return try client.property(path, "AppId") == .string("music-player")
                    && client.property(path, "Category") == .string("playback")
                    && client.property(path, "IsActive") == .bool(true)
            }
        }
    }
}

/// The podcast player: remote commands and Now Playing through MediaPlayerKit, driven by playerctl,
/// and paused and played by the bridge through its registered MPRIS player when a call comes.
@Suite("The podcast player", .serialized, .threadOfItsOwn)
struct PodcastPlayerTests {
    @Test("a call pauses the podcast player through its own MPRIS player and resumes it; playerctl drives it",
          arguments: SoundServerKind.underTest)
    func podcastPlayerAndCall(kind: SoundServerKind) throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let daemon = try BridgeDaemon(server: server)
        defer { daemon.terminate() }
        let podcast = try server.spawn(BridgeDaemon.buildDirectory + "/podcast-player", [])
        @discardableResult func playerctl(_ arguments: String...) throws -> String {
            let run = try TestProcess.run("playerctl", ["--player=podcast_player"] + arguments, environment: server.environment)
            guard run.status == 0 else { throw HarnessError("playerctl \(arguments) exited \(run.status): \(run.output)") }
            return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        try waitUntil("the podcast to play") { podcast.output.contains("podcast-player: playing") }
        try waitUntil("its stream to run") { try corked(server, "podcast-player") == false }
        try waitUntil("playerctl to see it playing") { (try? playerctl("status")) == "Playing" }
        #expect(try playerctl("metadata", "title") == "Episode 12: Sessions on Linux")

        // The bridge knows the player of the session: status shows it and what it plays.
        try waitUntil("status to show the player") {
            let status = try TestProcess.run(BridgeDaemon.buildDirectory + "/audiosessionctl", ["status"],
                                             environment: server.environment).output
            return status.contains("podcast_player.instance") && status.contains("Playing 'Episode 12: Sessions on Linux'")
        }

        // A call: paused by the bridge through MPRIS (and by the app's own handler), playing after it.
        let call = try server.spawn(BridgeDaemon.buildDirectory + "/voip-call", ["1"])
        try waitUntil("the call to start") { call.output.contains("voip-call: call started") }
        try waitUntil("the podcast corked during the call") { try corked(server, "podcast-player") == true }
        try waitUntil("MPRIS to say Paused") { (try? playerctl("status")) == "Paused" }
        try waitUntil("the bridge's Pause to reach the player") { podcast.output.contains("podcast-player: remote pause") }
        try waitUntil("the call to end") { call.output.contains("voip-call: call ended") }
        try waitUntil("the podcast playing again") { try corked(server, "podcast-player") == false }
        try waitUntil("MPRIS to say Playing") { (try? playerctl("status")) == "Playing" }
        #expect(podcast.output.contains("podcast-player: interruption ended with shouldResume"))
        try waitUntil("the bridge's Play to reach the player") { podcast.output.contains("podcast-player: remote play") }

        // playerctl as the desktop's controls.
        try playerctl("pause")
        try waitUntil("the podcast corked by playerctl") { try corked(server, "podcast-player") == true }
        try playerctl("play")
        try waitUntil("the podcast playing by playerctl") { try corked(server, "podcast-player") == false }
        try playerctl("position", "30")
        try waitUntil("the jump to 30 s") { podcast.output.contains("podcast-player: remote position 30.0") }
    }
}

/// Whether the server reports the app's record stream corked (nil: no stream).
func recordingCorked(_ server: SoundServer, _ app: String) throws -> Bool? {
    try server.streams(record: true).compactMap(ReportedStream.init).first { $0.app == app }?.corked
}

/// The voip-call example listens as well as speaks: its own record stream, paused by its
/// ``SessionRecordController`` while a real source mute interrupts the call (builtInMicMuted).
@Suite("The call's recording", .serialized, .threadOfItsOwn)
struct CallRecordingTests {
    @Test("a muted microphone pauses the call's recording (builtInMicMuted) and unmuting resumes it",
          arguments: SoundServerKind.underTest)
    func mutedMicrophone(kind: SoundServerKind) throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let daemon = try BridgeDaemon(server: server)
        defer { daemon.terminate() }
        let call = try server.spawn(BridgeDaemon.buildDirectory + "/voip-call", ["30"])
        try waitUntil("the call to start") { call.output.contains("voip-call: call started") }
        try waitUntil("the call to record") { try recordingCorked(server, "voip-call") == false }

        try server.pactl(["set-source-mute", "mic", "1"])
        try waitUntil("the recording corked on the server") { try recordingCorked(server, "voip-call") == true }
        #expect(call.output.contains("voip-call: recording paused: interruption began (builtInMicMuted)"))
        // The call still speaks: a muted microphone interrupts its recording, not its playback.
        let speaking = try server.streams().compactMap(ReportedStream.init).first { $0.app == "voip-call" }
        #expect(speaking?.mute == false && speaking?.corked == false)

        try server.pactl(["set-source-mute", "mic", "0"])
        try waitUntil("the recording running again") { try recordingCorked(server, "voip-call") == false }
        #expect(call.output.contains("voip-call: recording resumed: interruption ended with shouldResume (builtInMicMuted)"))
    }

    @Test("with overrideMutedMicrophoneInterruption a muted microphone interrupts nothing",
          arguments: SoundServerKind.underTest)
    func overriddenMute(kind: SoundServerKind) throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let daemon = try BridgeDaemon(server: server)
        defer { daemon.terminate() }
        let call = try server.spawn(BridgeDaemon.buildDirectory + "/voip-call", ["30", "override-muted-microphone"])
        try waitUntil("the call to record") { try recordingCorked(server, "voip-call") == false }
        try server.pactl(["set-source-mute", "mic", "1"])
        // The bridge has seen the mute once it logged it; an interruption would be decided in that step.
        try waitUntil("the bridge to log the muted microphone") {
            daemon.records.contains { $0["event"] as? String == "device.mute" && $0["muted"] as? Bool == true }
        }
        let session = try #require(daemon.records.first { $0["event"] as? String == "session.created" && $0["app"] as? String == "voip-call" })
        #expect(!daemon.records.contains { $0["event"] as? String == "interruption" && $0["session"] as? String == session["session"] as? String })
        #expect(try recordingCorked(server, "voip-call") == false)
        #expect(!call.output.contains("recording paused"))
    }
}

@Suite("Buffer plans for an app's own streams")
struct StreamBufferPlanTests {
    @Test("preferred sample rate and IO buffer duration become a sample spec and pa_buffer_attr")
    func plans() {
        let plan = StreamBufferPlan(preferredSampleRate: 44100, preferredIOBufferDuration: 0.01)
        #expect(plan.sampleSpec.rate == 44100 && plan.sampleSpec.channels == 2)
        #expect(plan.playbackAttributes.tlength == 441 * 4)
        #expect(plan.playbackAttributes.minreq == 441)
        #expect(plan.recordAttributes.fragsize == 441 * 4)
        let defaults = StreamBufferPlan(preferredSampleRate: 0, preferredIOBufferDuration: 0, channels: 1)
        #expect(defaults.sampleRate == 48000 && defaults.targetLength == 960 * 2)
    }
}
