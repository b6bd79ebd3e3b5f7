// SPDX-License-Identifier: Apache-2.0
import AudioSessionKit
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// A handler in the seeds' spelling (`AVAudioSession…` renamed): older constants, top-level types and
/// notification names.
final class SeedEraHandler: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [String] = []
    var entries: [String] { lock.withLock { seen } }

    func handleInterruption(_ notification: Notification) {
        guard let value = notification.userInfo?[AudioSessionInterruptionTypeKey] as? UInt,
            let type = AudioSessionInterruptionType(rawValue: value)
        else { return }
        var text = type == .began ? "began" : "ended"
        if type == .ended, let raw = notification.userInfo?[AudioSessionInterruptionOptionKey] as? UInt,
            AudioSessionInterruptionOptions(rawValue: raw).contains(.shouldResume)
        {
            text += " shouldResume"
        }
        lock.withLock { seen.append(text) }
    }
}

@Suite("The seeds' spellings", .threadOfItsOwn)
struct SeedSpellingTests {
    @Test("Apple's port names are the same port types and raw strings")
    func portNames() {
        let pairs: [(AudioSession.Port, String)] = [
            (.builtInSpeaker, "Speaker"), (.builtInReceiver, "Receiver"), (.bluetoothA2DP, "BluetoothA2DPOutput"),
            (.HDMI, "HDMIOutput"), (.PCI, "PCI"), (.builtInMic, "MicrophoneBuiltIn"), (.headsetMic, "MicrophoneWired"),
            (.headphones, "Headphones"), (.bluetoothHFP, "BluetoothHFP"), (.usbAudio, "USBAudio"), (.lineIn, "LineIn"),
            (.fireWire, "Firewire"), (.AVB, "AVB"), (.thunderbolt, "Thunderbolt"),
        ]
        for (port, raw) in pairs { #expect(port.rawValue == raw) }
    }

    @Test("the older SDK's global port-type constants are the port types")
    func globalPortConstants() {
        let pairs: [(AudioSession.Port, String)] = [
            (AudioSessionPortLineIn, "LineIn"), (AudioSessionPortBuiltInMic, "MicrophoneBuiltIn"),
            (AudioSessionPortHeadsetMic, "MicrophoneWired"), (AudioSessionPortLineOut, "LineOut"),
            (AudioSessionPortHeadphones, "Headphones"), (AudioSessionPortBluetoothA2DP, "BluetoothA2DPOutput"),
            (AudioSessionPortBuiltInReceiver, "Receiver"), (AudioSessionPortBuiltInSpeaker, "Speaker"),
            (AudioSessionPortHDMI, "HDMIOutput"), (AudioSessionPortAirPlay, "AirPlay"),
            (AudioSessionPortBluetoothLE, "BluetoothLE"), (AudioSessionPortBluetoothHFP, "BluetoothHFP"),
            (AudioSessionPortUSBAudio, "USBAudio"), (AudioSessionPortCarAudio, "CarAudio"),
            (AudioSessionPortVirtual, "Virtual"), (AudioSessionPortPCI, "PCI"), (AudioSessionPortFireWire, "Firewire"),
            (AudioSessionPortDisplayPort, "DisplayPort"), (AudioSessionPortAVB, "AVB"),
            (AudioSessionPortThunderbolt, "Thunderbolt"),
        ]
        for (port, raw) in pairs { #expect(port.rawValue == raw) }
        #expect(Set(pairs.map(\.0)) == Set(PortType.allCases), "a constant for every port type")
    }

    @Test("seed 004's route-change handler, as written, follows headphones plugged and pulled through the bridge")
    func seedRouteChangeHandler() throws {
        let server = try SoundServer(.pulseaudio)
        defer { server.stop() }
        let daemon = try BridgeDaemon(server: server)
        defer { daemon.terminate() }
        let app = try server.spawn(BridgeDaemon.buildDirectory + "/seed-route-handler", [])
        try waitUntil("the seed's player to be active (it printed: \(app.output))") { app.output.contains("seed-route-handler: active") }
        let modules = try server.plug(.wiredHeadphones)
        try server.setDefaultSink("headphones")
        try waitUntil("the handler to see the headphones (it printed: \(app.output))") {
            app.output.contains("headphonesConnected: true")
        }
        for module in modules { try server.unloadModule(module) }
        try waitUntil("the handler to see them go (it printed: \(app.output))") {
            app.output.components(separatedBy: "headphonesConnected: true")[1].contains("headphonesConnected: false")
        }
    }

    @Test("a handler written with the old names hears a call through the bridge", arguments: [SoundServerKind.pulseaudio])
    func oldNamesAgainstTheBridge(kind: SoundServerKind) throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let daemon = try BridgeDaemon(server: server)
        defer { daemon.terminate() }
        let session = AudioSession(busAddress: server.busAddress!, appID: "seed-player")
        let handler = SeedEraHandler()
        let observer = NotificationCenter.default.addObserver(forName: .AudioSessionInterruption, object: session, queue: nil) {
            handler.handleInterruption($0)
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try session.setCategory(AudioSessionCategoryPlayback, mode: AudioSessionModeSpokenAudio, options: [])
        try session.setActive(true)
        #expect(session.category == .playback && session.mode == .spokenAudio)

        let call = AudioSession(busAddress: server.busAddress!, appID: "seed-call")
        try call.setCategory(AudioSessionCategoryPlayAndRecord, mode: AudioSessionModeVoiceChat, options: [])
        try call.setActive(true)
        try waitUntil("began") { handler.entries == ["began"] }
        try call.setActive(false, options: AudioSessionSetActiveOptions.notifyOthersOnDeactivation)
        try waitUntil("ended with shouldResume") { handler.entries == ["began", "ended shouldResume"] }
    }
}
