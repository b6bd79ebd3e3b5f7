// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel
import Testing

/// Routes and the eight route-change reasons, each with the previous route.
@Suite("Routes and route changes")
struct RouteTests {
    /// Music playing on the speaker, then on headphones that were plugged in.
    func musicOnHeadphones() -> (Scene, SessionID, StreamID, DeviceID) {
        var scene = Scene()
        let music = scene.activeSession("music", .playback)
        let stream = scene.startStream("music", in: music)
        let headphones = scene.plugHeadphones()
        scene.settle()
        scene.mark()
        return (scene, music, stream, headphones)
    }

    @Test("a session's route is its streams' devices, or the defaults its category uses")
    func routeFromStreamsAndDefaults() {
        var scene = Scene()
        let recorder = scene.createSession("recorder")
        scene.setCategory(recorder, .record)
        #expect(scene.engine.currentRoute(of: recorder).inputs.map(\.portType) == [.microphoneBuiltIn])
        #expect(scene.engine.currentRoute(of: recorder).outputs.isEmpty)
        let music = scene.createSession("music")
        scene.setCategory(music, .playback)
        #expect(scene.engine.currentRoute(of: music).outputs.map(\.uid) == ["speaker"])
        #expect(scene.engine.currentRoute(of: music).inputs.isEmpty)
    }

    @Test("plugging in headphones gives newDeviceAvailable with the speaker as previous route")
    func newDeviceAvailable() {
        var scene = Scene()
        let music = scene.activeSession("music", .playback)
        _ = scene.startStream("music", in: music)
        scene.settle()
        scene.mark()
        _ = scene.plugHeadphones()
        #expect(scene.routeReasons(music) == [.newDeviceAvailable])
        #expect(scene.routeChanges(music).first?.previous.outputs.map(\.portType) == [.speaker])
        #expect(scene.routeChanges(music).first?.current.outputs.map(\.portType) == [.headphones])
    }

    @Test("headphones pulled during playback: oldDeviceUnavailable, previous route holds Headphones, one report")
    func headphonesPulledDuringPlayback() {
        var (scene, music, _, headphones) = musicOnHeadphones()
        scene.unplug(headphones)
        scene.settle()
        #expect(scene.routeReasons(music) == [.oldDeviceUnavailable])
        let change = scene.routeChanges(music)[0]
        #expect(change.previous.outputs.map(\.portType) == [.headphones])
        #expect(change.previous.outputs.first?.portName == "Headphones")
        #expect(change.current.outputs.map(\.portType) == [.speaker])
        #expect(scene.engine.sessions[music]?.reportedRoute.outputs.map(\.portType) == [.speaker])
    }

    @Test("headphones pulled during recording: the recorder's input route changes with oldDeviceUnavailable")
    func headsetPulledDuringRecording() {
        var scene = Scene()
        let recorder = scene.activeSession("recorder", .record)
        let headsetMic = scene.plug(.input, "headset-mic", "Headset Microphone",
                                    properties: ["device.form_factor": "headset", "device.bus": "usb"])
        scene.setDefault(.input, "headset-mic", moveStreams: true)
        let stream = scene.startStream("recorder", in: recorder, direction: .input)
        #expect(scene.engine.currentRoute(of: recorder).inputs.map(\.portType) == [.microphoneWired])
        scene.settle()
        scene.mark()
        scene.unplug(headsetMic)
        scene.settle()
        #expect(scene.routeReasons(recorder) == [.oldDeviceUnavailable])
        #expect(scene.routeChanges(recorder)[0].previous.inputs.map(\.portType) == [.microphoneWired])
        #expect(scene.engine.currentRoute(of: recorder).inputs.map(\.portType) == [.microphoneBuiltIn])
        #expect(scene.serverStreams[stream]?.device == scene.microphone)
    }

    @Test("a category change while recording always gives categoryChange, even with the same devices")
    func categoryChangeWhileRecording() {
        var scene = Scene()
        let recorder = scene.activeSession("recorder", .record)
        _ = scene.startStream("recorder", in: recorder, direction: .input)
        scene.mark()
        scene.setCategory(recorder, .playAndRecord)
        #expect(scene.routeReasons(recorder) == [.categoryChange])
        #expect(scene.routeChanges(recorder)[0].previous.outputs.isEmpty)
        #expect(scene.routeChanges(recorder)[0].current.outputs.map(\.uid) == ["speaker"])
        scene.setCategory(recorder, .playAndRecord, mode: .videoRecording)
        #expect(scene.routeReasons(recorder) == [.categoryChange, .categoryChange])
    }

    @Test("the user moving a stream gives routeConfigurationChange")
    func userMove() {
        var (scene, music, stream, _) = musicOnHeadphones()
        scene.advance(1000)
        scene.userMoves(stream, to: scene.speaker)
        #expect(scene.routeReasons(music) == [.routeConfigurationChange])
        #expect(scene.routeChanges(music)[0].previous.outputs.map(\.portType) == [.headphones])
    }

    @Test("a user's move onto headphones the bridge heard of before the session: routeConfigurationChange; after it: newDeviceAvailable",
          arguments: [false, true])
    func userMoveOntoHeadphonesByOrderOfHearing(heardOfAfterTheSession: Bool) {
        var scene = Scene()
        let heardOfBefore = heardOfAfterTheSession ? nil : scene.plugHeadphones(makeDefault: false)
        let music = scene.activeSession("music", .playback)
        let headphones = heardOfBefore ?? scene.plugHeadphones(makeDefault: false)
        let stream = scene.startStream("music", in: music)
        scene.settle()
        scene.mark()
        scene.userMoves(stream, to: headphones)
        #expect(scene.routeReasons(music) == [heardOfAfterTheSession ? .newDeviceAvailable : .routeConfigurationChange])
        #expect(scene.routeChanges(music).first?.previous.outputs.map(\.portType) == [.speaker])
    }

    @Test("the user changing the default device moves a stream-less session: routeConfigurationChange")
    func defaultChanged() {
        var scene = Scene()
        _ = scene.plug(.output, "hdmi", "HDMI", properties: ["device.form_factor": "tv"])
        scene.advance(1000)
        let music = scene.createSession("music")
        scene.setCategory(music, .playback)
        scene.advance(1000)
        scene.mark()
        scene.setDefault(.output, "hdmi", moveStreams: false)
        #expect(scene.routeReasons(music) == [.routeConfigurationChange])
        #expect(scene.engine.currentRoute(of: music).outputs.map(\.portType) == [.hdmiOutput])
    }

    @Test("OverrideOutputAudioPort(speaker) moves a call's output and gives override")
    func overrideToSpeaker() {
        var scene = Scene()
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        let stream = scene.startStream("call", in: call)
        _ = scene.plugHeadphones()
        scene.advance(1000)
        scene.mark()
        let owner = scene.owner(of: call)
        #expect(scene.error(scene.call { .overrideOutput($0, call, caller: owner, .speaker) }) == nil)
        #expect(scene.serverStreams[stream]?.device == scene.speaker)
        #expect(scene.routeReasons(call) == [.override])
        #expect(scene.routeChanges(call)[0].previous.outputs.map(\.portType) == [.headphones])
        scene.advance(1000)
        #expect(scene.error(scene.call { .overrideOutput($0, call, caller: owner, .none) }) == nil)
        #expect(scene.routeReasons(call) == [.override, .override])
    }

    @Test("a move the server refused is logged, and asked for again the next time there is a reason for it")
    func refusedMoveAskedAgain() {
        var scene = Scene()
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        let stream = scene.startStream("call", in: call)
        let headphones = scene.plugHeadphones()
        scene.advance(1000)
        let owner = scene.owner(of: call)
        func movesToSpeaker() -> Int {
            scene.actions.filter { if case .moveStream(stream, scene.speaker, _) = $0 { true } else { false } }.count
        }
        // The server refuses the move: its report never comes, and the stream stays on the headphones.
        scene.holdReports = true
        scene.mark()
        _ = scene.call { .overrideOutput($0, call, caller: owner, .speaker) }
        #expect(movesToSpeaker() == 1)
        scene.heldReports = []
        scene.serverStreams[stream]?.device = headphones
        scene.holdReports = false
        scene.send(.actionFailed(.moveStream(stream, to: scene.speaker, why: "override"), AudioSessionError(.unspecified, "refused")))
        #expect(scene.actions.contains(.record(.commandFailed("move", subject: "\(stream) to \(scene.speaker)", error: "refused"))),
                "the refusal is in the event log")
        scene.mark()
        #expect(scene.error(scene.call { .overrideOutput($0, call, caller: owner, .speaker) }) == nil)
        #expect(movesToSpeaker() == 1)
        #expect(scene.serverStreams[stream]?.device == scene.speaker)
    }

    @Test("a command refused because its stream is gone is not logged as an error")
    func refusalOfGoneStreamNotLogged() {
        var scene = Scene()
        let music = scene.activeSession("music", .playback)
        let stream = scene.startStream("music", in: music)
        scene.stopStream(stream)
        scene.mark()
        scene.send(.actionFailed(.setStreamMute(stream, true, why: "call"), AudioSessionError(.unspecified, "No such entity")))
        #expect(!scene.actions.contains { if case .record(.commandFailed) = $0 { true } else { false } })
    }

    @Test("OverrideOutputAudioPort(speaker) outside playAndRecord is BadParam")
    func overrideNeedsPlayAndRecord() {
        var scene = Scene()
        let music = scene.activeSession("music", .playback)
        let owner = scene.owner(of: music)
        #expect(scene.error(scene.call { .overrideOutput($0, music, caller: owner, .speaker) }) == .badParam)
    }

    @Test("SetPreferredInput moves input streams and gives override; an unknown uid is BadParam")
    func preferredInput() {
        var scene = Scene()
        let recorder = scene.activeSession("recorder", .record)
        let stream = scene.startStream("recorder", in: recorder, direction: .input)
        let usb = scene.plug(.input, "usb-mic", "USB Microphone", properties: ["device.bus": "usb"])
        scene.advance(1000)
        scene.mark()
        let owner = scene.owner(of: recorder)
        #expect(scene.error(scene.call { .setPreferredInput($0, recorder, caller: owner, uid: "usb-mic") }) == nil)
        #expect(scene.serverStreams[stream]?.device == usb)
        #expect(scene.routeReasons(recorder) == [.override])
        #expect(scene.error(scene.call { .setPreferredInput($0, recorder, caller: owner, uid: "nope") }) == .badParam)
    }

    @Test("waking from sleep reports a changed route as wakeFromSleep")
    func wakeFromSleep() {
        var (scene, music, _, headphones) = musicOnHeadphones()
        scene.send(.sleep)
        scene.send(.wake)
        scene.unplug(headphones)
        scene.settle()
        #expect(scene.routeReasons(music) == [.wakeFromSleep])
    }

    @Test("no device for the category gives noSuitableRouteForCategory")
    func noSuitableRoute() {
        var scene = Scene()
        let recorder = scene.activeSession("recorder", .record)
        scene.mark()
        scene.unplug(scene.microphone)
        #expect(scene.routeReasons(recorder) == [.noSuitableRouteForCategory])
        #expect(scene.routeChanges(recorder)[0].previous.inputs.map(\.portType) == [.microphoneBuiltIn])
    }

    @Test("a headphone port becoming unavailable on the same sink is oldDeviceUnavailable")
    func portUnavailable() {
        var scene = Scene()
        let ports = [
            DevicePort(name: "analog-output-speaker", description: "Speakers", availability: .unknown, serverType: .speaker),
            DevicePort(name: "analog-output-headphones", description: "Headphones", availability: .yes, serverType: .headphones),
        ]
        let card = DeviceInfo(id: DeviceID(.output, 50), name: "alsa_output.pci", description: "Built-in Audio",
                              ports: ports, activePort: "analog-output-headphones")
        scene.addDevice(card)
        scene.setDefault(.output, "alsa_output.pci", moveStreams: false)
        let music = scene.activeSession("music", .playback)
        _ = scene.startStream("music", in: music)
        scene.advance(1000)
        scene.mark()
        var unplugged = card
        unplugged.ports[1].availability = .no
        unplugged.activePort = "analog-output-speaker"
        scene.send(.deviceChanged(unplugged))
        #expect(scene.routeReasons(music) == [.oldDeviceUnavailable])
        #expect(scene.routeChanges(music)[0].previous.outputs.first?.uid == "alsa_output.pci:analog-output-headphones")
        scene.advance(1000)
        scene.send(.deviceChanged(card))
        #expect(scene.routeReasons(music) == [.oldDeviceUnavailable, .newDeviceAvailable])
    }

    static let bluetooth = ["device.bus": "bluetooth", "api.bluez5.address": "00:11:22:33:44:55",
                            "api.bluez5.profile": "a2dp-sink"]

    @Test("a Bluetooth profile switch (gone and back within the window) is one routeConfigurationChange")
    func bluetoothProfileSwitch() {
        var scene = Scene()
        let music = scene.activeSession("music", .playback)
        let stream = scene.startStream("music", in: music)
        let a2dp = scene.plug(.output, "bluez_output.a2dp", "Headset", properties: Self.bluetooth)
        scene.setDefault(.output, "bluez_output.a2dp", moveStreams: true)
        scene.settle()
        scene.mark()
        scene.unplug(a2dp)
        scene.advance(100)
        var hfp = Self.bluetooth
        hfp["api.bluez5.profile"] = "headset-head-unit"
        let handsFree = scene.plug(.output, "bluez_output.hfp", "Headset", properties: hfp)
        scene.setDefault(.output, "bluez_output.hfp", moveStreams: true)
        scene.settle()
        #expect(scene.routeReasons(music) == [.routeConfigurationChange])
        #expect(scene.routeChanges(music)[0].previous.outputs.map(\.portType) == [.bluetoothA2DPOutput])
        #expect(scene.routeChanges(music)[0].current.outputs.map(\.portType) == [.bluetoothHFP])
        #expect(scene.serverStreams[stream]?.device == handsFree)
    }

    @Test("a Bluetooth device that stays away past the window is oldDeviceUnavailable, reported once")
    func bluetoothGone() {
        var scene = Scene()
        let music = scene.activeSession("music", .playback)
        _ = scene.startStream("music", in: music)
        let a2dp = scene.plug(.output, "bluez_output.a2dp", "Headset", properties: Self.bluetooth)
        scene.setDefault(.output, "bluez_output.a2dp", moveStreams: true)
        scene.settle()
        scene.mark()
        scene.unplug(a2dp)
        scene.advance(299)
        #expect(scene.routeReasons(music).isEmpty, "held for the window")
        scene.advance(2)
        #expect(scene.routeReasons(music) == [.oldDeviceUnavailable])
        #expect(scene.routeChanges(music)[0].previous.outputs.map(\.portType) == [.bluetoothA2DPOutput])
    }

    @Test("a wired device's removal is reported at once, with no window")
    func wiredRemovalAtOnce() {
        var (scene, music, _, headphones) = musicOnHeadphones()
        scene.unplug(headphones)
        #expect(scene.routeReasons(music) == [.oldDeviceUnavailable])
    }
}
