// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel
import Testing

/// Port types from, in order: the server's port type, the Bluetooth profile, `device.form_factor`,
/// `device.bus`, and the names.
@Suite("Port classification")
struct PortClassifierTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var label: String
        var direction: Direction
        var name: String
        var port: DevicePort?
        var properties: [String: String]
        var expected: PortType
        var testDescription: String { label }
    }

    static let rows: [Row] = [
        Row(label: "server type speaker", direction: .output, name: "alsa_output.pci",
            port: DevicePort(name: "analog-output-speaker", description: "Speakers", serverType: .speaker),
            properties: [:], expected: .speaker),
        Row(label: "server type headphones beats a speaker form factor", direction: .output, name: "alsa_output.pci",
            port: DevicePort(name: "analog-output-headphones", description: "Headphones", serverType: .headphones),
            properties: ["device.form_factor": "internal"], expected: .headphones),
        Row(label: "server type HDMI", direction: .output, name: "alsa_output.hdmi",
            port: DevicePort(name: "hdmi-output-0", description: "HDMI / DisplayPort", serverType: .hdmi),
            properties: [:], expected: .hdmiOutput),
        Row(label: "server type HDMI named DisplayPort", direction: .output, name: "alsa_output.hdmi",
            port: DevicePort(name: "hdmi-output-1", description: "DisplayPort 2", serverType: .hdmi),
            properties: [:], expected: .displayPort),
        Row(label: "server type line out", direction: .output, name: "alsa_output.pci",
            port: DevicePort(name: "analog-output-lineout", description: "Line Out", serverType: .line),
            properties: [:], expected: .lineOut),
        Row(label: "server type internal mic", direction: .input, name: "alsa_input.pci",
            port: DevicePort(name: "analog-input-internal-mic", description: "Internal Microphone", serverType: .mic),
            properties: [:], expected: .microphoneBuiltIn),
        Row(label: "server type external mic", direction: .input, name: "alsa_input.pci",
            port: DevicePort(name: "analog-input-mic", description: "Microphone", serverType: .mic),
            properties: [:], expected: .microphoneWired),
        Row(label: "server type headset mic", direction: .input, name: "alsa_input.pci",
            port: DevicePort(name: "analog-input-headset-mic", description: "Headset Microphone", serverType: .headset),
            properties: [:], expected: .microphoneWired),
        Row(label: "server type line in", direction: .input, name: "alsa_input.pci",
            port: DevicePort(name: "analog-input-linein", description: "Line In", serverType: .line),
            properties: [:], expected: .lineIn),
        Row(label: "Bluetooth A2DP profile", direction: .output, name: "bluez_output.00_11.1", port: nil,
            properties: ["device.bus": "bluetooth", "api.bluez5.profile": "a2dp-sink"], expected: .bluetoothA2DPOutput),
        Row(label: "Bluetooth HFP profile (PulseAudio's property)", direction: .output, name: "bluez_sink.00_11.handsfree",
            port: nil, properties: ["device.bus": "bluetooth", "bluetooth.protocol": "headset_head_unit"],
            expected: .bluetoothHFP),
        Row(label: "Bluetooth LE audio", direction: .output, name: "bluez_output.00_11.1", port: nil,
            properties: ["api.bluez5.address": "00:11", "api.bluez5.profile": "bap-sink"], expected: .bluetoothLE),
        Row(label: "Bluetooth input is HFP", direction: .input, name: "bluez_input.00_11", port: nil,
            properties: ["device.bus": "bluetooth"], expected: .bluetoothHFP),
        Row(label: "form factor headphone", direction: .output, name: "hp", port: nil,
            properties: ["device.form_factor": "headphone", "device.bus": "pci"], expected: .headphones),
        Row(label: "form factor headset beats the USB bus", direction: .output, name: "usb-headset", port: nil,
            properties: ["device.form_factor": "headset", "device.bus": "usb"], expected: .headphones),
        Row(label: "form factor tv", direction: .output, name: "tv", port: nil,
            properties: ["device.form_factor": "tv"], expected: .hdmiOutput),
        Row(label: "form factor car", direction: .output, name: "car", port: nil,
            properties: ["device.form_factor": "car"], expected: .carAudio),
        Row(label: "form factor handset is the receiver", direction: .output, name: "earpiece", port: nil,
            properties: ["device.form_factor": "handset"], expected: .receiver),
        Row(label: "bus usb", direction: .output, name: "alsa_output.usb-dac", port: nil,
            properties: ["device.bus": "usb"], expected: .usbAudio),
        Row(label: "bus network is AirPlay", direction: .output, name: "raop_output.living-room", port: nil,
            properties: ["device.bus": "network"], expected: .airPlay),
        Row(label: "bus firewire beats an analog line port", direction: .output, name: "alsa_output.firewire-dice",
            port: DevicePort(name: "analog-output", description: "Line Out", serverType: .line),
            properties: ["device.bus": "firewire"], expected: .fireWire),
        Row(label: "bus firewire input", direction: .input, name: "alsa_input.firewire-dice", port: nil,
            properties: ["device.bus": "firewire"], expected: .fireWire),
        Row(label: "bus thunderbolt", direction: .output, name: "alsa_output.tb-interface", port: nil,
            properties: ["device.bus": "thunderbolt"], expected: .thunderbolt),
        Row(label: "an AVB stream (PipeWire's module-avb)", direction: .output, name: "avb.sink", port: nil,
            properties: ["device.api": "avb"], expected: .avb),
        Row(label: "names: a null sink is virtual", direction: .output, name: "auto_null", port: nil,
            properties: [:], expected: .virtual),
        Row(label: "names: line out", direction: .output, name: "alsa_output.lineout", port: nil,
            properties: [:], expected: .lineOut),
        Row(label: "names: a monitor-less mic", direction: .input, name: "alsa_input.mic", port: nil,
            properties: [:], expected: .microphoneWired),
    ]

    @Test("classification row", arguments: rows)
    func classify(row: Row) {
        let device = DeviceInfo(id: DeviceID(row.direction, 1), name: row.name, description: row.name,
                                ports: row.port.map { [$0] } ?? [], activePort: row.port?.name, properties: row.properties)
        #expect(PortClassifier.portType(of: device) == row.expected)
    }

    @Test("the uid is device:port, or the device name without ports")
    func uid() {
        let port = DevicePort(name: "analog-output-speaker", description: "Speakers", serverType: .speaker)
        let withPort = DeviceInfo(id: DeviceID(.output, 1), name: "alsa_output.pci", description: "Built-in",
                                  ports: [port], activePort: port.name)
        #expect(withPort.portDescription.uid == "alsa_output.pci:analog-output-speaker")
        #expect(withPort.portDescription.portName == "Built-in")
        #expect(withPort.portDescription.channels == ["front-left", "front-right"])
        let plain = DeviceInfo(id: DeviceID(.output, 2), name: "hp", description: "Headphones")
        #expect(plain.portDescription.uid == "hp")
    }
}
