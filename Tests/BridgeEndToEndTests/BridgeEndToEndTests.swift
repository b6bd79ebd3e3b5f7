// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import DBusKit
import Foundation
import ServerTestTraits
import Testing

/// The bridge end to end: `audiosessiond` on a private bus and a private server, apps as bus clients,
/// streams as `pacat`, assertions on what the server reports and on the signals the apps receive.
@Suite("The bridge end to end", .serialized, .threadOfItsOwn)
struct BridgeEndToEndTests {
    @Test("a call interrupts playing music, which resumes only with notifyOthersOnDeactivation",
          arguments: SoundServerKind.underTest)
    func callInterruptsMusic(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let musicApp = try scenario.client(), callApp = try scenario.client()
        let music = try scenario.session(musicApp, "music", "playback")
        let stream = try scenario.play("music", token: music.token, in: music.path, observer: musicApp)
        let call = try scenario.session(callApp, "call", "playAndRecord", mode: "voiceChat")
        try waitUntil("music to hear began") { musicApp.interruptions(music.path).map(\.type) == ["began"] }
        try waitUntil("the music stream to be muted") { try scenario.muted(stream) == true }
        #expect(musicApp.interruptions(music.path)[0].reason == "default")
        try callApp.setActive(call.path, false, options: ["notifyOthersOnDeactivation"])
        try waitUntil("music to hear ended") { musicApp.interruptions(music.path).count == 2 }
        #expect(musicApp.interruptions(music.path)[1].type == "ended")
        #expect(musicApp.interruptions(music.path)[1].shouldResume)
        try waitUntil("the music stream to be unmuted") { try scenario.muted(stream) == false }

        // Again, ending the call without the option.
        try musicApp.setActive(music.path, true)
        try callApp.setActive(call.path, true)
        try waitUntil("music to hear began again") { musicApp.interruptions(music.path).count == 3 }
        try callApp.setActive(call.path, false)
        try waitUntil("music to hear ended again") { musicApp.interruptions(music.path).count == 4 }
        #expect(musicApp.interruptions(music.path)[3].type == "ended")
        #expect(!musicApp.interruptions(music.path)[3].shouldResume)
        try waitUntil("the music stream to be unmuted") { try scenario.muted(stream) == false }
    }

    @Test("an ambient game leaves playing music alone; a soloAmbient game interrupts it",
          arguments: SoundServerKind.underTest)
    func ambientAndSoloAmbientGames(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let musicApp = try scenario.client(), gameApp = try scenario.client()
        let music = try scenario.session(musicApp, "music", "playback")
        let stream = try scenario.play("music", token: music.token, in: music.path, observer: musicApp)
        let ambient = try scenario.session(gameApp, "ambient-game", "ambient")
        // The bridge has decided once the activation is in its log; a mute decided in that step would
        // be logged with it, and its command would have reached the server before the next call does.
        try waitUntil("the bridge to log the ambient game's activation") {
            scenario.daemon.records.contains { $0["event"] as? String == "session.active" && $0["app"] as? String == "ambient-game" }
        }
        #expect(try gameApp.property(ambient.path, "IsActive") == .bool(true))
        #expect(try musicApp.property(music.path, "IsActive") == .bool(true))
        #expect(musicApp.interruptions(music.path).isEmpty)
        #expect(!scenario.daemon.records.contains { $0["event"] as? String == "action" && $0["stream"] as? String == "sink-input/\(stream.index)" })
        #expect(try scenario.muted(stream) == false)
        _ = try scenario.session(gameApp, "solo-game", "soloAmbient")
        try waitUntil("music to hear began") { musicApp.interruptions(music.path).map(\.type) == ["began"] }
        try waitUntil("the music stream to be muted") { try scenario.muted(stream) == true }
    }

    @Test("navigation ducks music to the duck level and restores exactly; a user's change is kept",
          arguments: SoundServerKind.underTest)
    func navigationDucksMusic(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let musicApp = try scenario.client(), navApp = try scenario.client()
        let music = try scenario.session(musicApp, "music", "playback")
        let stream = try scenario.play("music", token: music.token, in: music.path, observer: musicApp)
        try scenario.userSetsVolume(stream, 0xC000, observer: musicApp)
        let nav = try scenario.session(navApp, "navigation", "playback", mode: "voicePrompt", options: ["duckOthers"])
        let ducked = UInt32(Double(0xC000) * 0.2)
        try waitUntil("the duck") { try scenario.volume(stream) == ["front-left": ducked, "front-right": ducked] }
        try navApp.setActive(nav.path, false)
        try waitUntil("the exact volume back") { try scenario.volume(stream) == ["front-left": 0xC000, "front-right": 0xC000] }

        try navApp.setActive(nav.path, true)
        try waitUntil("the duck again") { try scenario.volume(stream) == ["front-left": ducked, "front-right": ducked] }
        try scenario.userSetsVolume(stream, 0x7000, observer: musicApp)
        try navApp.setActive(nav.path, false)
        // The unduck must not take the user's new volume away. The bridge decides that in the same step
        // as the deactivation: once that is logged, only the first cycle's unduck may stand in the log.
        try waitUntil("the second deactivation to be handled") {
            scenario.daemon.records.filter { $0["event"] as? String == "session.active" && $0["active"] as? Bool == false }.count == 2
        }
        let unducks = scenario.daemon.records.filter {
            $0["action"] as? String == "unduck" && $0["stream"] as? String == "sink-input/\(stream.index)"
        }
        #expect(unducks.count == 1)
        #expect(try scenario.volume(stream) == ["front-left": 0x7000, "front-right": 0x7000])
    }

    @Test("while a call is active, a non-mixable playback session's activation fails with InsufficientPriority",
          arguments: SoundServerKind.underTest)
    func insufficientPriority(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let callApp = try scenario.client(), musicApp = try scenario.client()
        _ = try scenario.session(callApp, "call", "playAndRecord", mode: "voiceChat")
        let music = try scenario.session(musicApp, "music", "playback", active: false)
        #expect(musicApp.errorName(music.path, BusClient.sessionInterface, "SetActive", [.bool(true), .strings([])])
            == "io.github.audiosession.Error.InsufficientPriority")
        #expect(try musicApp.property(music.path, "IsActive") == .bool(false))
    }

    @Test("deactivating a session whose stream still runs fails with IsBusy", arguments: SoundServerKind.underTest)
    func isBusy(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let app = try scenario.client()
        let music = try scenario.session(app, "music", "playback")
        try scenario.play("music", token: music.token, in: music.path, observer: app)
        #expect(app.errorName(music.path, BusClient.sessionInterface, "SetActive", [.bool(false), .strings([])])
            == "io.github.audiosession.Error.IsBusy")
        #expect(try app.property(music.path, "IsActive") == .bool(true))
    }

    @Test("headphones: unplug, plug, category change and a user's move give their route-change reasons",
          arguments: SoundServerKind.underTest)
    func routeChanges(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let app = try scenario.client()
        let modules = try scenario.server.plug(.wiredHeadphones)
        // The headphones were there before the session: in the bridge's order too. The server's report
        // of them and the app's call come on two connections, and a device the bridge hears of after a
        // session was made is new to that session (a move onto it: newDeviceAvailable; limits.md).
        try scenario.waitForBridgeDevice("headphones", observer: app)
        let music = try scenario.session(app, "music", "playback")
        let stream = try scenario.play("music", token: music.token, in: music.path, observer: app)
        // The user sends the music to the headphones (the default stays the speaker, so that the
        // server has no reason of its own to move the stream later).
        try scenario.server.move(sinkInput: stream.index, to: "headphones")
        // The move's own route change comes first; only then are the signals forgotten, or a late one
        // (a loaded machine) would read as the unplug's.
        try waitUntil("the user's move's route change (received: \(app.routeChanges(music.path)))") {
            app.routeChanges(music.path).contains { $0.reason == "routeConfigurationChange" && $0.previousOutputs == ["Speaker"] }
        }
        app.forgetSignals()
        for module in modules { try scenario.server.unloadModule(module) }
        try waitUntil("the unplug's route change") { !app.routeChanges(music.path).isEmpty }
        #expect(app.routeChanges(music.path)[0].reason == "oldDeviceUnavailable")
        #expect(app.routeChanges(music.path)[0].previousOutputs == ["Headphones"])

        app.forgetSignals()
        try scenario.server.plug(.wiredHeadphones)
        try scenario.server.move(sinkInput: stream.index, to: "headphones")
        try waitUntil("the plug's route change") { !app.routeChanges(music.path).isEmpty }
        #expect(app.routeChanges(music.path)[0].reason == "newDeviceAvailable")
        #expect(app.routeChanges(music.path)[0].previousOutputs == ["Speaker"])

        app.forgetSignals()
        try app.setCategory(music.path, "playAndRecord")
        try waitUntil("the category's route change") { !app.routeChanges(music.path).isEmpty }
        #expect(app.routeChanges(music.path)[0].reason == "categoryChange")

        app.forgetSignals()
        try scenario.server.move(sinkInput: stream.index, to: "speaker")
        try waitUntil("the move's route change") { !app.routeChanges(music.path).isEmpty }
        #expect(app.routeChanges(music.path)[0].reason == "routeConfigurationChange")
        #expect(app.routeChanges(music.path)[0].previousOutputs == ["Headphones"])
    }
}
