// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
@testable import AudioSessionDaemon
import AudioSessionModel
import AudioTestHarness
import Foundation
import PulseAudioClient
import ServerTestTraits
import Testing

/// The sound-server side against real PulseAudio 16 and pipewire-pulse servers.
@Suite("The sound-server side, on real servers", .threadOfItsOwn)
struct ServerAdapterTests {
    @Test("each stack is the server it is named for", arguments: SoundServerKind.underTest)
    func eachStackIsTheNamedServer(kind: SoundServerKind) throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let name = try server.pactl(["info"]).split(separator: "\n").first { $0.hasPrefix("Server Name:") } ?? ""
        #expect(name == "Server Name: \(kind.serverName)")
    }

    @Test("devices appear and vanish with the right port types", arguments: SoundServerKind.underTest)
    func devicesAppearAndVanish(kind: SoundServerKind) throws {
        let bridge = try BridgeUnderTest(kind)
        defer { bridge.stop() }
        #expect(try bridge.device(named: "speaker").portDescription.portType == .speaker)
        #expect(try bridge.device(named: "mic").portDescription.portType == .microphoneBuiltIn)
        let expectations: [(SimulatedDevice, [(String, PortType)])] = [
            (.wiredHeadphones, [("headphones", .headphones)]),
            (.usbHeadset, [("usb_headset", .headphones), ("usb_headset_mic", .microphoneWired)]),
            (.hdmi, [("hdmi", .hdmiOutput)]),
            (.lineOut, [("line_out", .lineOut)]),
            (.bluetoothA2DP(), [("bluez_output.00_11_22_33_44_55.a2dp", .bluetoothA2DPOutput)]),
            (.bluetoothHFP("66:77:88:99:AA:BB"), [("bluez_output.66_77_88_99_AA_BB.hfp", .bluetoothHFP),
                                                  ("bluez_input.66_77_88_99_AA_BB.hfp", .bluetoothHFP)]),
        ]
        for (device, names) in expectations {
            bridge.forget()
            let modules = try bridge.server.plug(device)
            var ids: [DeviceID] = []
            for (name, type) in names {
                let seen = try bridge.device(named: name)
                ids.append(seen.id)
                #expect(seen.portDescription.portType == type, "\(name) on \(kind)")
            }
            for module in modules { try bridge.server.unloadModule(module) }
            for (name, _) in names {
                try waitUntil("\(name) to vanish from the engine") { !bridge.engine.devices.values.contains { $0.name == name } }
            }
            for id in ids { #expect(bridge.seenEvents().contains(.deviceVanished(id))) }
        }
    }

    @Test("a stream's mute and volume, set through the backend, read back from the server",
          arguments: SoundServerKind.underTest)
    func muteAndVolumeThroughTheBackend(kind: SoundServerKind) throws {
        let (bridge, _, id) = try bridgeWithPlayer(kind)
        defer { bridge.stop() }
        bridge.onLoop { $0.adapter.execute(.setStreamMute(id, true, why: "test")) }
        try waitUntil("the server to report the stream muted") { try bridge.server.reportedStream(index: id.index)?.mute == true }
        let volume = ChannelVolumes([0x4321, 0x8765])
        bridge.onLoop { $0.adapter.execute(.setStreamVolume(id, volume, why: "test")) }
        try waitUntil("the server to report the new volume") {
            try bridge.server.reportedStream(index: id.index)?.volume == ["front-left": 0x4321, "front-right": 0x8765]
        }
        bridge.onLoop { $0.adapter.execute(.setStreamMute(id, false, why: "test")) }
        try waitUntil("the server to report the stream unmuted") { try bridge.server.reportedStream(index: id.index)?.mute == false }
        // A command on a stream that no longer exists is reported back to the engine as failed.
        bridge.onLoop { $0.adapter.execute(.setStreamMute(StreamID(.output, 987_654), true, why: "test")) }
        try waitUntil("the failure to reach the engine") {
            bridge.seenEvents().contains { if case .actionFailed = $0 { true } else { false } }
        }
    }

    @Test("after a fade down and back, the volume equals the original exactly", arguments: SoundServerKind.underTest)
    func fadeDownAndBackIsExact(kind: SoundServerKind) throws {
        let bridge = try BridgeUnderTest(kind)
        defer { bridge.stop() }
        let music = bridge.createSession(app: "music", token: "music-token", .playback)
        try bridge.server.play(app: "music", properties: ["audiosession.token": "music-token"])
        let id = try bridge.stream(of: "music")
        let original: [String: UInt32] = ["front-left": 0xB123, "front-right": 0x9ABC]
        try bridge.server.pactl(["set-sink-input-volume", "\(id.index)", "\(0xB123)", "\(0x9ABC)"])
        try waitUntil("the engine to see the user's volume") {
            bridge.engine.userLevels(of: id)?.volume == ChannelVolumes([0xB123, 0x9ABC])
        }
        #expect(bridge.engine.session(of: id) == music)
        let navigation = bridge.createSession(app: "navigation", token: "nav-token", .playback, options: .duckOthers)
        bridge.setActive(navigation, true)
        try waitUntil("the duck to reach 20 %") {
            try bridge.server.reportedStream(index: id.index)?.volume == ["front-left": 0xB123 / 5, "front-right": 0x9ABC / 5]
        }
        let steps = bridge.seenActions().filter { if case .setStreamVolume(id, _, _) = $0 { true } else { false } }
        #expect(steps.count > 2, "the duck is a fade in steps")
        bridge.setActive(navigation, false)
        try waitUntil("the volume to come back exactly") { try bridge.server.reportedStream(index: id.index)?.volume == original }
        try waitUntil("the journal to be clear") { bridge.engine.streamsWithEffects.isEmpty }
        #expect(try bridge.server.reportedStream(index: id.index)?.mute == false)
    }

    @Test("default-device changes and user moves are seen as such", arguments: SoundServerKind.underTest)
    func defaultChangesAndUserMoves(kind: SoundServerKind) throws {
        let bridge = try BridgeUnderTest(kind)
        defer { bridge.stop() }
        try bridge.server.plug(.wiredHeadphones)
        _ = try bridge.device(named: "headphones")  // once the engine knows them
        try bridge.server.setDefaultSink("speaker")
        try waitUntil("speaker to be the default") { bridge.engine.defaultDeviceName[.output] == "speaker" }
        let idle = bridge.createSession(app: "idle", token: "idle-token", .playback)
        let music = bridge.createSession(app: "music", token: "music-token", .playback)
        try bridge.server.play(app: "music", properties: ["audiosession.token": "music-token"], device: "speaker")
        let stream = try bridge.stream(of: "music")
        try waitUntil("the stream to join its session") { bridge.engine.session(of: stream) == music }

        // The user moves the stream to the headphones and back.
        bridge.forget()
        try bridge.server.move(sinkInput: stream.index, to: "headphones")
        try waitUntil("a route change after moving the stream to the headphones") { !bridge.routeChanges(music).isEmpty }
        #expect(bridge.routeChanges(music).map(\.reason) == [.routeConfigurationChange])
        #expect(bridge.routeChanges(music).first?.previous.outputs.map(\.uid) == ["speaker"])
        bridge.forget()
        try bridge.server.move(sinkInput: stream.index, to: "speaker")
        try waitUntil("a route change after moving the stream back to the speaker") { !bridge.routeChanges(music).isEmpty }
        #expect(bridge.routeChanges(music).map(\.reason) == [.routeConfigurationChange])
        #expect(bridge.routeChanges(music).first?.previous.outputs.map(\.portType) == [.headphones])
        #expect(bridge.engine.currentRoute(of: music).outputs.map(\.uid) == ["speaker"])

        // The user changes the default: the session that has no stream follows it.
        bridge.forget()
        try bridge.server.setDefaultSink("headphones")
        try waitUntil("the engine to see the new default (the engine: \(bridge.engine.defaultDeviceName[.output] ?? "none"), "
                      + "the server: \((try? bridge.server.pactl(["get-default-sink"])) ?? "?"))") {
            bridge.engine.defaultDeviceName[.output] == "headphones"
        }
        try waitUntil("a route change for the session that uses the default") { !bridge.routeChanges(idle).isEmpty }
        #expect(bridge.routeChanges(idle).first?.reason == .routeConfigurationChange)
        #expect(bridge.routeChanges(idle).first?.previous.outputs.map(\.uid) == ["speaker"])
        #expect(bridge.engine.currentRoute(of: idle).outputs.map(\.portType) == [.headphones])
    }

    @Test("while change queries are held, a stream's change reaches the engine only once they are released",
          arguments: SoundServerKind.underTest)
    func heldChangeQueries(kind: SoundServerKind) throws {
        let (bridge, _, player) = try bridgeWithPlayer(kind)
        defer { bridge.stop() }
        // The change made here, to half: PipeWire 0.3 may still report the player's stream paused at no
        // volume as it starts, a change asked about before the queries were held.
        let lowered = { (event: PolicyEvent) in
            if case .streamChanged(let info) = event, info.id == player, (0.4...0.6).contains(info.volume.level) { true } else { false }
        }
        bridge.onLoop { $0.adapter.holdsChangeQueries = true }
        _ = try bridge.server.pactl(["set-sink-input-volume", "\(player.index)", "50%"])
        // A new stream is still asked about at once; the server announced the change before it. (On
        // PipeWire the engine takes the stream in at its next report, a change, which is held too.)
        try bridge.server.play(app: "marker")
        try waitUntil("the adapter to read the marker's stream") {
            bridge.cache.sinkInputs.values.contains { $0.properties["application.name"] == "marker" }
        }
        let early = bridge.seenEvents().filter(lowered)
        #expect(early.isEmpty, "the change was asked about while held: \(early)")
        bridge.onLoop { $0.adapter.holdsChangeQueries = false }
        try waitUntil("the held change to reach the engine") { bridge.seenEvents().contains(where: lowered) }
    }

    @Test("a hold of the change queries set while a level command is out ends once PulseAudio has answered it; on pipewire-pulse it lasts",
          arguments: SoundServerKind.underTest)
    func holdEndsWithTheAnswers(kind: SoundServerKind) throws {
        let (bridge, _, player) = try bridgeWithPlayer(kind)
        defer { bridge.stop() }
        let heldAtFirst = bridge.onLoop { core -> Bool in
            core.adapter.execute(.setStreamMute(player, true, why: "test"))
            core.adapter.holdsChangeQueries = true
            return core.adapter.awaitsLevelCommands
        }
        #expect(heldAtFirst, "the mute is awaited as the hold is set")
        try waitUntil("the server to answer the mute") { !bridge.onLoop { $0.adapter.awaitsLevelCommands } }
        let holds = bridge.onLoop { $0.adapter.holdsChangeQueries }
        // PulseAudio answers once it has carried the mute out; pipewire-pulse answers before it does.
        #expect(holds == (kind != .pulseaudio))
        bridge.onLoop { $0.adapter.holdsChangeQueries = false }
        try waitUntil("the server to report the stream muted") { try bridge.server.reportedStream(index: player.index)?.mute == true }
    }

    @Test("a stopped adapter holds no inotify watch: a user has few, and bridges in one process add up",
          arguments: SoundServerKind.underTest)
    func stoppedAdapterLetsGoOfItsWatches(kind: SoundServerKind) throws {
        let bridge = try BridgeUnderTest(kind)
        defer { bridge.stop() }
        #expect(bridge.onLoop { $0.adapter.watchesFiles }, "a running adapter watches the server's socket")
        let watchingAfterStop = bridge.onLoop { core -> Bool in
            core.adapter.stop()
            return core.adapter.watchesFiles
        }
        #expect(!watchingAfterStop)
    }

    @Test("a pulse client's process is the app's on every stack, not pipewire-pulse's, and its streams take it from there",
          arguments: SoundServerKind.underTest)
    func pulseClientProcess(kind: SoundServerKind) throws {
        let (bridge, player, id) = try bridgeWithPlayer(kind)
        defer { bridge.stop() }
        let (client, stream) = bridge.onLoop { core -> (ProcessFacts?, ProcessFacts?) in
            let adapter = core.adapter
            guard let reported = adapter.cache.sinkInputs[id.index], let client = reported.client else { return (nil, nil) }
            return (adapter.clientProcesses[client], adapter.process(of: reported))
        }
        #expect(client?.pid == player.pid, "the client's process")
        #expect(stream?.pid == player.pid, "the stream's process")
        #expect(stream?.chain.first == player.pid)
    }

    @Test("killing the server gives lost; restarting it gives reset", arguments: SoundServerKind.underTest)
    func serverLossAndReset(kind: SoundServerKind) throws {
        let bridge = try BridgeUnderTest(kind)
        defer { bridge.stop() }
        let session = bridge.createSession(app: "music", token: "music-token", .playback)
        bridge.setActive(session, true)
        bridge.server.killServer()
        try waitUntil("the session to be told of the loss") { bridge.seenActions().contains(.mediaServicesLost(session)) }
        #expect(bridge.engine.sessions[session]?.isActive == false)
        try bridge.server.restartServer()
        try waitUntil("the reset") { bridge.seenActions().contains(.mediaServicesReset(session)) }
        #expect(try bridge.device(named: "speaker").portDescription.portType == .speaker)
    }

    @Test("after a restart, the connection with shared memory takes over under stream churn and loses nothing")
    func sharedMemoryTakeoverUnderChurn() throws {
        let bridge = try BridgeUnderTest(.pulseaudio, sharedMemoryDelay: .seconds(2))
        defer { bridge.stop() }
        bridge.server.killServer()
        try waitUntil("the loss") { !bridge.isConnected }
        try bridge.server.restartServer()
        try waitUntil("the bridge back") { bridge.isConnected }
        let bridgeClient = { bridge.cache.clients.values.filter { $0.properties["application.id"] == "io.github.audiosession.Bridge1" } }
        // Streams come and go until the bridge's connection is one made after the churn began (the takeover
        // comes 2 s after the read here), and for a while after.
        var players: [TestProcess] = []
        var firstChurnClient: UInt32?
        var takenOverAt: ContinuousClock.Instant?
        var number = 0
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline, takenOverAt.map({ ContinuousClock.now - $0 < .seconds(1) }) ?? true {
            players.append(try bridge.server.play(app: "churn\(number)", role: number % 2 == 0 ? "music" : nil))
            _ = try bridge.server.reportedStream(of: "churn\(number)")
            if players.count > 4 { _ = players.removeFirst().stop() }
            if firstChurnClient == nil { firstChurnClient = bridge.cache.clients.values.filter { $0.name == "churn0" }.map(\.index).first }
            if takenOverAt == nil, let first = firstChurnClient, bridgeClient().map(\.index).allSatisfy({ $0 > first }),
               bridgeClient().count == 1 {
                takenOverAt = .now
            }
            number += 1
        }
        #expect(takenOverAt != nil, "no connection took over: \(bridgeClient())")
        let fresh = try FreshIntrospection(address: bridge.server.address)
        defer { fresh.close() }
        try waitUntil("the cache to equal a fresh introspection", timeout: .seconds(10)) {
            try CacheProjection(bridge.cache) == CacheProjection(fresh.read())
        }
        try waitUntil("the engine to know the live streams and no others") {
            Set(bridge.engine.streamInfos.values.map(\.app.name)) == Set(players.indices.map { "churn\(number - players.count + $0)" })
        }
        #expect(bridgeClient().count == 1)
        #expect(bridge.seenEvents().filter { $0 == .serverReset }.count == 1, "the takeover is no second reset")
    }

    @Test("fifty add/remove cycles of a device with 20 live streams leave the cache equal to a fresh introspection",
          arguments: SoundServerKind.underTest)
    func cacheSurvivesChurn(kind: SoundServerKind) throws {
        let bridge = try BridgeUnderTest(kind)
        defer { bridge.stop() }
        // One after the other: a burst of connects can overflow the server socket's listen backlog.
        for n in 0..<20 {
            try bridge.server.play(app: "app\(n)", role: n % 2 == 0 ? "music" : nil)
            _ = try bridge.server.reportedStream(of: "app\(n)")
        }
        try waitUntil("20 streams in the cache (it has \(bridge.cache.sinkInputs.values.filter { $0.client != nil }.count); "
                      + "the server \((try? bridge.server.streams().count) ?? -1))", timeout: .seconds(20)) {
            bridge.cache.sinkInputs.values.filter { $0.client != nil }.count == 20
        }
        for _ in 0..<50 {
            let modules = try bridge.server.plug(.usbHeadset)
            for module in modules { try bridge.server.unloadModule(module) }
        }
        let fresh = try FreshIntrospection(address: bridge.server.address)
        defer { fresh.close() }
        try waitUntil("the cache to equal a fresh introspection", timeout: .seconds(10)) {
            try CacheProjection(bridge.cache) == CacheProjection(fresh.read())
        }
        #expect(bridge.engine.streamInfos.count == 20)
        #expect(!bridge.engine.devices.values.contains { $0.name.hasPrefix("usb_headset") })
    }

    /// A bridge on a server of `kind` with one `pacat` playing as "player": the bridge, the player and
    /// the player's stream.
    private func bridgeWithPlayer(_ kind: SoundServerKind) throws -> (BridgeUnderTest, TestProcess, StreamID) {
        let bridge = try BridgeUnderTest(kind)
        do {
            let player = try bridge.server.play(app: "player")
            return (bridge, player, try bridge.stream(of: "player"))
        } catch {
            bridge.stop()
            throw error
        }
    }
}
