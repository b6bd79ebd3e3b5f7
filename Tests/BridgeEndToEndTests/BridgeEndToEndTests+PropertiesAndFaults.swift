// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import DBusKit
import Foundation
import Testing

extension BridgeEndToEndTests {
    @Test("CurrentRoute, OutputVolume, OutputNumberOfChannels, SampleRate and IsOtherAudioPlaying match the server",
          arguments: SoundServerKind.underTest)
    func propertiesMatchTheServer(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let app = try scenario.client()
        let music = try scenario.session(app, "music", "playback")
        let sinks = try scenario.server.pactlJSON(["list", "sinks"]) as? [[String: Any]] ?? []
        let speaker = try #require(sinks.first { $0["name"] as? String == "speaker" })
        let route = try app.property(music.path, "CurrentRoute").structFields ?? []
        #expect(route.count == 2)
        #expect(route[1].arrayItems?.compactMap { $0.stringDictionary?["uid"]?.stringValue } == ["speaker"])
        #expect(route[0].arrayItems?.isEmpty == true, "playback has no input")
        let channels = (speaker["channel_map"] as? String ?? "").split(separator: ",").count
        #expect(try app.property(music.path, "OutputNumberOfChannels") == .int32(Int32(channels)))
        let rate = (speaker["sample_specification"] as? String ?? "").split(separator: " ").last.map { Double($0.dropLast(2)) } ?? nil
        #expect(try app.property(music.path, "SampleRate") == .double(rate ?? -1))
        #expect(try app.property(music.path, "IsOtherAudioPlaying") == .bool(false))

        app.forgetSignals()
        try scenario.server.pactl(["set-sink-volume", "speaker", "\(0x8000)"])
        try waitUntil("OutputVolume to follow the sink (now \((try? app.property(music.path, "OutputVolume")).map { "\($0)" } ?? "?"))") {
            try app.property(music.path, "OutputVolume") == .double(0.5)
        }
        try waitUntil("PropertiesChanged for OutputVolume") {
            app.signals("PropertiesChanged", from: music.path).contains {
                $0.arguments.count > 1 && $0.arguments[1].stringDictionary?["OutputVolume"] == .double(0.5)
            }
        }
        // Another app, not a child of this test (whose process owns the music session).
        try scenario.server.playDetached(app: "other-app")
        try waitUntil("IsOtherAudioPlaying") { try app.property(music.path, "IsOtherAudioPlaying") == .bool(true) }
        try waitUntil("PropertiesChanged for IsOtherAudioPlaying") {
            app.signals("PropertiesChanged", from: music.path).contains {
                $0.arguments.count > 1 && $0.arguments[1].stringDictionary?["IsOtherAudioPlaying"] == .bool(true)
            }
        }
    }

    @Test("bad input gets named errors and the bridge keeps serving", arguments: SoundServerKind.underTest)
    func badInput(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let app = try scenario.client(), stranger = try scenario.client()
        let session = try app.createSession("app")
        let interface = BusClient.sessionInterface
        func category(_ c: String, _ m: String, _ o: [String]) -> [BusValue] { [.string(c), .string(m), .strings(o)] }
        #expect(app.errorName(session.path, interface, "SetCategory", category("loud", "default", []))
            == "io.github.audiosession.Error.BadParam")
        #expect(app.errorName(session.path, interface, "SetCategory", category("playback", "voiceChat", []))
            == "io.github.audiosession.Error.IncompatibleCategory")
        #expect(app.errorName(session.path, interface, "SetCategory", category("ambient", "default", ["duckOthers"]))
            == "io.github.audiosession.Error.BadParam")
        #expect(app.errorName(session.path, interface, "SetActive", [.string("yes")])
            == "org.freedesktop.DBus.Error.InvalidArgs")
        let tooMany = Array(repeating: "mixWithOthers", count: 17)
        #expect(app.errorName(session.path, interface, "SetCategory", category("playback", "default", tooMany))
            == "io.github.audiosession.Error.BadParam")
        #expect(app.errorName(session.path, interface, "OverrideOutputAudioPort", [.string("earpiece")])
            == "io.github.audiosession.Error.BadParam")
        #expect(app.errorName(BusClient.manager, BusClient.bridge, "CreateSession",
                              [.string(""), .vardict([])]) == "io.github.audiosession.Error.BadParam")
        #expect(stranger.errorName(session.path, interface, "SetActive", [.bool(true), .strings([])])
            == "io.github.audiosession.Error.AccessDenied")
        #expect(stranger.errorName(session.path, interface, "Release") == "io.github.audiosession.Error.AccessDenied")
        // Nothing changed, and the bridge still serves.
        #expect(try app.property(session.path, "Category") == .string("soloAmbient"))
        #expect(try app.property(session.path, "IsActive") == .bool(false))
        try app.setCategory(session.path, "playback")
        #expect(try app.property(session.path, "Category") == .string("playback"))
        let listed = try stranger.call(BusClient.manager, BusClient.bridge, "ListSessions")[0].arrayItems ?? []
        #expect(listed.contains(.objectPath(session.path)))
        // A connection may hold 32 sessions; the 33rd is refused.
        for n in 1..<32 { _ = try app.createSession("app\(n)") }
        #expect(app.errorName(BusClient.manager, BusClient.bridge, "CreateSession", [.string("one-too-many"), .vardict([])])
            == "io.github.audiosession.Error.ResourceNotAvailable")
    }

    @Test("SIGTERM undoes every mute and duck before the bridge exits", arguments: SoundServerKind.underTest)
    func terminateUndoes(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let app = try scenario.client(), other = try scenario.client()
        let (_, song, effects) = try scenario.musicAndGame(app, gameVolume: 0x10000)
        _ = try scenario.session(other, "radio", "playback")
        _ = try scenario.session(other, "navigation", "playback", mode: "voicePrompt", options: ["duckOthers"])
        try waitUntil("music muted") { try scenario.muted(song) == true }
        try waitUntil("the game ducked") { try scenario.volume(effects) == ["front-left": 0x10000 / 5, "front-right": 0x10000 / 5] }
        #expect(scenario.daemon.terminate() == 0)
        // The bridge has gone, so whatever puts the levels back is what it sent before exiting
        // (pipewire-pulse answers before its nodes show new levels, hence the polling).
        try waitUntil("music unmuted", timeout: .seconds(5)) { try scenario.muted(song) == false }
        try waitUntil("the game's volume back, not \(String(describing: try? scenario.volume(effects))); \(scenario.daemon.diagnosis(lastRecords: 16))",
                      timeout: .seconds(5)) {
            try scenario.volume(effects) == ["front-left": 0x10000, "front-right": 0x10000]
        }
    }

    @Test("the owner's process is killed while its sessions duck and interrupt others: everything is undone",
          arguments: SoundServerKind.underTest)
    func ownerKilled(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let app = try scenario.client()
        let (music, song, effects) = try scenario.musicAndGame(app, gameVolume: 0xA000)
        let owner = try scenario.server.spawn(
            BridgeEndToEndTests.clientScript("session_owner.py"),
            ["radio", "playback", "default", "", "navigation", "playback", "voicePrompt", "duckOthers"])
        try waitUntil("the owner's sessions") { owner.output.contains("ready") }
        try waitUntil("music muted by the radio") { try scenario.muted(song) == true }
        let ducked = UInt32(Double(0xA000) * 0.2)
        try waitUntil("the game ducked by navigation") { try scenario.volume(effects) == ["front-left": ducked, "front-right": ducked] }
        owner.kill9()
        try waitUntil("music unmuted") { try scenario.muted(song) == false }
        try waitUntil("the game's exact volume back") { try scenario.volume(effects) == ["front-left": 0xA000, "front-right": 0xA000] }
        try waitUntil("music told the interruption ended") { app.interruptions(music.path).map(\.type) == ["began", "ended"] }
        #expect(app.interruptions(music.path)[1].shouldResume == false)
    }

    @Test("the bridge is SIGKILLed with streams muted and ducked; its next start puts them back",
          arguments: SoundServerKind.underTest)
    func daemonKilled(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let app = try scenario.client()
        let (_, song, effects) = try scenario.musicAndGame(app, gameVolume: 0xA000)
        let other = try scenario.client()
        _ = try scenario.session(other, "radio", "playback")
        _ = try scenario.session(other, "navigation", "playback", mode: "voicePrompt", options: ["duckOthers"])
        try waitUntil("music muted") { try scenario.muted(song) == true }
        let ducked = UInt32(Double(0xA000) * 0.2)
        try waitUntil("the game ducked") { try scenario.volume(effects) == ["front-left": ducked, "front-right": ducked] }
        scenario.daemon.kill9()
        #expect(try scenario.muted(song) == true, "a killed bridge undoes nothing by itself")
        try scenario.daemon.restart()
        try waitUntil("music unmuted by the restarted bridge") { try scenario.muted(song) == false }
        try waitUntil("the game's exact volume back") { try scenario.volume(effects) == ["front-left": 0xA000, "front-right": 0xA000] }
        try waitUntil("the journal emptied") {
            let text = textSoFar(scenario.server.root + "/state/audiosession/journal.json")
            let slots = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any]
            return slots?.allSatisfy { $0 is NSNull } == true
        }
    }

    /// A helper client script kept beside these tests.
    static func clientScript(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Clients/\(name)").path
    }
}

extension BridgeEndToEndTests {
    @Test("after a SIGKILL, audiosessiond --restore-journal (the unit's ExecStopPost) puts the streams back", arguments: SoundServerKind.underTest)
    func restoreJournalAfterKill(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let app = try scenario.client(), other = try scenario.client()
        let (_, song, effects) = try scenario.musicAndGame(app, gameVolume: 0xA000)
        _ = try scenario.session(other, "radio", "playback")
        _ = try scenario.session(other, "navigation", "playback", mode: "voicePrompt", options: ["duckOthers"])
        try waitUntil("music muted") { try scenario.muted(song) == true }
        try waitUntil("the game ducked") { try scenario.volume(effects) == ["front-left": 0x2000, "front-right": 0x2000] }
        scenario.daemon.kill9()
        let restore = try TestProcess.run(BridgeDaemon.testBuild,
                                          ["--restore-journal", "--server", scenario.server.address],
                                          environment: scenario.server.environment)
        #expect(restore.status == 0, "\(restore.output)")
        // The server has taken the commands; pipewire-pulse shows a stream's new volume a moment after it
        // acknowledged the change.
        try scenario.waitUntil("the music unmuted") { try scenario.muted(song) == false }
        try scenario.waitUntil("the game's exact volume back") {
            try scenario.volume(effects) == ["front-left": 0xA000, "front-right": 0xA000]
        }
    }
}
