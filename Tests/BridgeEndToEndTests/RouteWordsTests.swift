// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import DBusKit
import Foundation
import ServerTestTraits
import Testing

/// The route words on a real server, through a D-Bus client: the speaker override moves the
/// streams, and a restart of the sound server reaches the client as MediaServicesWereLost then Reset.
@Suite("Route words against real servers", .serialized, .threadOfItsOwn)
struct RouteWordsTests {
    @Test("OverrideOutputAudioPort(speaker) moves a call from the headphones to the speaker, and none moves it back",
          arguments: SoundServerKind.underTest)
    func speakerOverride(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        _ = try scenario.server.plug(.wiredHeadphones)
        try scenario.server.setDefaultSink("headphones")
        // The call starts once the bridge has seen the headphones become the default.
        try scenario.waitForBridgeDefault("headphones")
        let app = try scenario.client()
        let call = try scenario.session(app, "call", "playAndRecord", mode: "voiceChat")
        let stream = try scenario.play("call", token: call.token, in: call.path, observer: app)
        let headphones = try #require(try scenario.server.deviceIndex(named: "headphones"))
        let speaker = try #require(try scenario.server.deviceIndex(named: "speaker"))
        try scenario.waitUntil("the call on the headphones") { try scenario.server.reportedStream(index: stream.index)?.device == headphones }
        // The bridge decides on what it has seen: once it knows the call is on the headphones.
        try scenario.waitUntil("the bridge to see the call on the headphones") {
            try scenario.bridgeView(of: stream.index, app)?["device"] as? String == "sink/\(headphones)"
        }

        app.forgetSignals()
        _ = try app.call(call.path, BusClient.sessionInterface, "OverrideOutputAudioPort", [.string("speaker")])
        try scenario.waitUntil("the call moved to the speaker") { try scenario.server.reportedStream(index: stream.index)?.device == speaker }
        try scenario.waitUntil("RouteChange override from the headphones") {
            app.routeChanges(call.path).contains { $0.reason == "override" && $0.previousOutputs == ["Headphones"] }
        }
        _ = try app.call(call.path, BusClient.sessionInterface, "OverrideOutputAudioPort", [.string("none")])
        try scenario.waitUntil("the call back on the headphones") { try scenario.server.reportedStream(index: stream.index)?.device == headphones }
    }

    @Test("a restart of the sound server reaches a client as MediaServicesWereLost, then Reset; a call still interrupts",
          arguments: SoundServerKind.underTest)
    func soundServerRestart(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let app = try scenario.client()
        let music = try scenario.session(app, "music", "playback")
        app.forgetSignals()
        scenario.server.killServer()
        try scenario.waitUntil("MediaServicesWereLost") { !app.signals("MediaServicesWereLost", from: music.path).isEmpty }
        try scenario.server.restartServer()
        try scenario.waitUntil("MediaServicesWereReset") { !app.signals("MediaServicesWereReset", from: music.path).isEmpty }
        let order = app.signals.filter { $0.path == music.path && $0.member.hasPrefix("MediaServices") }.map(\.member)
        #expect(order == ["MediaServicesWereLost", "MediaServicesWereReset"])

        // The session is still there, inactive; activated again, a call interrupts it.
        try app.setActive(music.path, true)
        let stream = try scenario.play("music", token: music.token, in: music.path, observer: app)
        let callApp = try scenario.client()
        _ = try scenario.session(callApp, "call", "playAndRecord", mode: "voiceChat")
        try scenario.waitUntil("the music muted by the call") { try scenario.muted(stream) == true }
        #expect(app.interruptions(music.path).map(\.type) == ["began"])
    }

    @Test("an AirPlay default takes a call only with allowAirPlay", arguments: SoundServerKind.underTest)
    func airPlayAdmission(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        try scenario.server.addSink(name: "raop_output.living_room", description: "Living Room",
                                    properties: ["device.bus": "network"])
        let speaker = try #require(try scenario.server.deviceIndex(named: "speaker"))
        let raop = try #require(try scenario.server.deviceIndex(named: "raop_output.living_room"))
        try scenario.server.setDefaultSink("raop_output.living_room")
        let app = try scenario.client()
        try scenario.waitForBridgeDefault("raop_output.living_room")
        // A call started while the default is an AirPlay sink plays on the speaker: the server puts it on
        // the default, and the bridge moves it off. (The engine's tables cover a default that becomes an
        // AirPlay sink while the call plays. On PipeWire the bridge's connection may still take the
        // speaker for the default, and a move there through it would mean "follow the default"; see
        // README, Limits.)
        let call = try scenario.session(app, "call", "playAndRecord", mode: "voiceChat")
        let callStream = try scenario.play("call", token: call.token, in: call.path, observer: app)
        try scenario.waitUntil("the call on the speaker") { try scenario.server.reportedStream(index: callStream.index)?.device == speaker }
        // Allowing AirPlay lets the call follow the default.
        try app.setCategory(call.path, "playAndRecord", mode: "voiceChat", options: ["allowAirPlay"])
        try scenario.waitUntil("the call on the AirPlay sink") { try scenario.server.reportedStream(index: callStream.index)?.device == raop }
    }
}
