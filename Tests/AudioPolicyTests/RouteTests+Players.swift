// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel
import Testing

/// Routes and players: the privacy rule, players paused across an unplug and a call, a Bluetooth call's
/// profile, and the loss and reset of the media server.
extension RouteTests {
    /// A media player playing on headphones: the headphones, its stream and its policy session.
    static func playerOnHeadphones(_ scene: inout Scene) -> (headphones: DeviceID, stream: StreamID, player: SessionID) {
        let headphones = scene.plugHeadphones()
        let stream = scene.startStream("Music Player", role: "music")
        return (headphones, stream, scene.policySession(of: stream))
    }

    @Test("the privacy rule: a media player's policy pauses it when its headphones vanish")
    func privacyRulePausesPlayer() {
        var scene = Scene()
        let (headphones, _, player) = Self.playerOnHeadphones(&scene)
        scene.settle()
        scene.unplug(headphones)
        #expect(scene.playerCommands(player) == ["pause"])
        #expect(scene.routeReasons(player).last == .oldDeviceUnavailable)
    }

    @Test("a player paused by a call whose headphones go during it is not played again when the call ends")
    func playerPausedByCallStaysPausedAfterUnplug() {
        var scene = Scene()
        let (headphones, stream, player) = Self.playerOnHeadphones(&scene)
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        scene.settle()
        scene.cork(stream)  // the player paused
        scene.unplug(headphones)
        scene.setActive(call, false, notify: true)
        #expect(scene.playerCommands(player) == ["pause"])
        #expect(scene.interruptions(player).last?.shouldResume == true)
    }

    @Test("a player paused at an unplug is paused and played again by a later call as any other")
    func playerPausedAtUnplugFollowsLaterCall() {
        var scene = Scene()
        let (headphones, stream, player) = Self.playerOnHeadphones(&scene)
        scene.settle()
        scene.unplug(headphones)
        scene.cork(stream)  // paused by the unplug (the bridge's or WirePlumber's pause)
        scene.cork(stream, false)  // the user plays it on the speakers
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        scene.settle()
        scene.cork(stream)
        scene.setActive(call, false, notify: true)
        #expect(scene.playerCommands(player) == ["pause", "pause", "play"])
    }

    @Test("a Bluetooth call switches the headset to its hands-free profile, and back after the call")
    func handsFreeProfileForCalls() {
        var scene = Scene()
        scene.send(.cardAppeared(CardInfo(index: 7, name: "bluez_card", profiles: [
            .init(name: "a2dp-sink"), .init(name: "headset-head-unit"), .init(name: "off"),
        ], activeProfile: "a2dp-sink")))
        _ = scene.plug(.output, "bluez_output.a2dp", "Headset", properties: Self.bluetooth, card: 7)
        scene.setDefault(.output, "bluez_output.a2dp", moveStreams: true)
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        #expect(scene.actions.contains { if case .setCardProfile(7, "headset-head-unit", _) = $0 { true } else { false } })
        scene.mark()
        scene.setActive(call, false)
        #expect(scene.actions.contains { if case .setCardProfile(7, "a2dp-sink", _) = $0 { true } else { false } })
    }

    @Test("media services lost makes every session inactive; reset tells each one")
    func mediaServicesLostAndReset() {
        var scene = Scene()
        let music = scene.activeSession("music", .playback)
        let stream = scene.startStream("music", in: music)
        _ = scene.activeSession("navigation", .playback, options: .duckOthers)
        scene.settle()
        scene.mark()
        scene.send(.serverLost)
        #expect(scene.actions.contains(.mediaServicesLost(music)))
        #expect(scene.engine.sessions[music]?.isActive == false)
        #expect(scene.journal.isEmpty)
        #expect(scene.remembered["sink-input-by-application-name:music"]?.volume.values == [0xC000, 0xC000],
                "the server is told to forget the duck for the app's next stream")
        scene.send(.serverReset)
        #expect(scene.actions.contains(.mediaServicesReset(music)))
        #expect(scene.engine.sessions[music] != nil, "explicit sessions survive a server loss")
        _ = stream
    }

    @Test("a stream that ends while ducked makes the server remember the user's levels, not the duck")
    func streamEndsWhileDucked() {
        var scene = Scene()
        let music = scene.activeSession("music", .playback)
        let stream = scene.startStream("music", in: music)
        _ = scene.activeSession("navigation", .playback, options: .duckOthers)
        scene.settle()
        scene.stopStream(stream)
        #expect(scene.remembered["sink-input-by-application-name:music"] == StreamLevels(
            volume: ChannelVolumes(channels: 2, value: 0xC000), mute: false))
        #expect(scene.journal.isEmpty)
    }

    @Test("a remove for a device never seen is ignored")
    func unknownRemoval() {
        var scene = Scene()
        scene.send(.deviceVanished(DeviceID(.output, 999)))
        scene.send(.streamVanished(StreamID(.output, 999)))
        #expect(scene.engine.devices.count == 2)
    }
}

/// Hardware values and the preferred values that are only hints.
@Suite("Hardware values")
struct HardwareValueTests {
    @Test("actual values come from the route's devices; preferred ones are stored hints")
    func hardwareValuesAndHints() {
        var scene = Scene()
        let surround = DeviceInfo(id: DeviceID(.output, 70), name: "surround", description: "Surround",
                                  properties: ["device.form_factor": "speaker"],
                                  channels: ["front-left", "front-right", "rear-left", "rear-right", "front-center", "lfe"],
                                  sampleRate: 44100, latency: 0.02, volume: ChannelVolumes(channels: 6, value: 0x8000))
        scene.addDevice(surround)
        scene.setDefault(.output, "surround", moveStreams: false)
        let app = scene.createSession("app")
        scene.setCategory(app, .playAndRecord)
        let owner = scene.owner(of: app)
        #expect(scene.error(scene.call { .setPreferredSampleRate($0, app, caller: owner, 96000) }) == nil)
        #expect(scene.error(scene.call { .setPreferredIOBufferDuration($0, app, caller: owner, 0.005) }) == nil)
        #expect(scene.error(scene.call { .setPreferredSampleRate($0, app, caller: owner, -1) }) == .badParam)
        #expect(scene.error(scene.call { .setPreferredIOBufferDuration($0, app, caller: ":1.other", 0.01) }) == .accessDenied)
        #expect(scene.engine.sessions[app]?.preferredSampleRate == 96000)
        #expect(scene.engine.sessions[app]?.preferredIOBufferDuration == 0.005)
        let values = scene.engine.hardwareValues(of: app)
        #expect(values.sampleRate == 44100, "the actual rate is the device's, not the hint")
        #expect(values.outputChannels == 6 && values.inputChannels == 1)
        #expect(values.outputLatency == 0.02)
        #expect(values.outputVolume == 0.5)
    }
}

@Suite("Following route changes")
struct FollowRouteTests {
    @Test("a policy that does not follow route changes keeps its streams on their device when the default changes")
    func pinnedPolicy() {
        var policies = Scene.policies
        policies.append(SessionPolicy(name: "tuner", configuration: try! SessionConfiguration(category: .playAndRecord,
                                      mode: .measurement, options: .mixWithOthers), activation: .firstStream,
                                      followsRouteChanges: false, match: PolicyMatch(applicationNames: ["Tuner"])))
        var scene = Scene(policies: policies)
        let tuner = scene.startStream("Tuner")
        let player = scene.startStream("Music Player", role: "music")
        _ = scene.plugHeadphones()  // the default moves to the headphones, and the server moves streams there
        #expect(scene.serverStreams[tuner]?.device == scene.speaker, "moved back by the bridge")
        #expect(scene.serverStreams[player]?.device != scene.speaker, "a policy that follows stays on the new default")
    }
}

@Suite("Default changes that arrive before their device")
struct EarlyDefaultTests {
    @Test("the server names a new default before the bridge has read the device: the route follows once it has")
    func defaultBeforeDevice() {
        var scene = Scene()
        let session = scene.activeSession("player", .playback)
        scene.settle()
        scene.mark()
        scene.send(.serverInfo(name: "fake", version: "1", defaultOutput: "headphones", defaultInput: "mic"))
        _ = scene.plug(.output, "headphones", "Headphones", properties: ["device.form_factor": "headphone", "device.bus": "pci"])
        scene.settle()
        #expect(scene.engine.currentRoute(of: session).outputs.map(\.uid) == ["headphones"])
        #expect(scene.routeReasons(session) == [.newDeviceAvailable])
    }
}
