import AudioPolicy
import AudioSessionDaemon
import AudioSessionModel
import AudioTestHarness
import Foundation
import Testing

/// The sound-server side against real PulseAudio 16 and pipewire-pulse servers.
@Suite("The sound-server side, on real servers", .serialized)
struct ServerAdapterTests {
    @Test("devices appear and vanish with the right port types", arguments: SoundServerKind.allCases)
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
            let modules = try bridge.server.plug(device)
            for (name, type) in names {
                #expect(try bridge.device(named: name).portDescription.portType == type, "\(name) on \(kind)")
            }
            for module in modules { try bridge.server.unloadModule(module) }
            for (name, _) in names {
                try waitUntil("\(name) to vanish from the engine") { !bridge.engine.devices.values.contains { $0.name == name } }
                #expect(bridge.seenEvents().contains { event in
                    if case .deviceVanished = event { return true } else { return false }
                })
            }
        }
    }
}
