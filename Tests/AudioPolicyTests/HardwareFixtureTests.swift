// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel
import Foundation
import Testing

/// Port classification against real hardware descriptions, kept as `pactl list` output in Fixtures/.
@Suite("Port classification of real hardware descriptions")
struct HardwareFixtureTests {
    /// fixture file → port type of each device in it, in order.
    static let rows: [(String, [PortType])] = [
        ("laptop-speaker.sinks", [.speaker]),
        ("laptop-headphones.sinks", [.headphones]),
        ("hdmi.sinks", [.hdmiOutput]),
        ("displayport-ucm.sinks", [.displayPort]),
        ("usb-headset.sinks", [.headphones]),
        ("usb-dac.sinks", [.usbAudio]),
        ("bluetooth-a2dp.sinks", [.bluetoothA2DPOutput]),
        ("bluetooth-hfp.sinks", [.bluetoothHFP]),
        ("pipewire-bluetooth-a2dp.sinks", [.bluetoothA2DPOutput]),
        ("line-out.sinks", [.lineOut]),
        ("spdif.sinks", [.lineOut]),
        ("laptop.sources", [.virtual, .microphoneBuiltIn]),
        ("headset-mic.sources", [.microphoneWired, .lineIn, .bluetoothHFP, .microphoneWired]),
    ]

    @Test("fixture", arguments: rows)
    func classify(row: (String, [PortType])) throws {
        let (name, expected) = row
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "txt", subdirectory: "Fixtures"))
        let devices = PactlListParser.parse(try String(contentsOf: url, encoding: .utf8))
        #expect(devices.count == expected.count)
        #expect(devices.map { PortClassifier.portType(of: $0) } == expected)
        #expect(devices.allSatisfy { !$0.name.isEmpty && $0.activePort != nil || $0.isMonitor })
    }

    @Test("a laptop's ports carry their availability, and the uid names the active port")
    func availabilityAndUID() throws {
        let url = try #require(Bundle.module.url(forResource: "laptop-speaker.sinks", withExtension: "txt", subdirectory: "Fixtures"))
        let sink = try #require(PactlListParser.parse(try String(contentsOf: url, encoding: .utf8)).first)
        #expect(sink.ports.map(\.availability) == [.unknown, .no])
        #expect(sink.uid == "alsa_output.pci-0000_00_1f.3.analog-stereo:analog-output-speaker")
        #expect(sink.portDescription.channels == ["front-left", "front-right"])
    }
}
