// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A device simulated with null sinks and sources carrying `device.form_factor`, `device.bus` and,
/// for Bluetooth, the properties a real headset has.
public struct SimulatedDevice: Sendable {
    public var sink: String?
    public var source: String?
    public var description: String
    public var properties: [String: String]
    public var inputProperties: [String: String]

    public static let wiredHeadphones = SimulatedDevice(
        sink: "headphones", source: nil, description: "Headphones",
        properties: ["device.form_factor": "headphone", "device.bus": "pci"], inputProperties: [:])
    public static let usbHeadset = SimulatedDevice(
        sink: "usb_headset", source: "usb_headset_mic", description: "USB Headset",
        properties: ["device.form_factor": "headset", "device.bus": "usb"],
        inputProperties: ["device.form_factor": "headset", "device.bus": "usb"])
    public static let hdmi = SimulatedDevice(
        sink: "hdmi", source: nil, description: "HDMI Monitor",
        properties: ["device.form_factor": "tv", "device.bus": "pci"], inputProperties: [:])
    public static let lineOut = SimulatedDevice(
        sink: "line_out", source: nil, description: "Line Out",
        properties: ["device.form_factor": "hifi", "device.bus": "pci"], inputProperties: [:])

    /// A Bluetooth headset in A2DP (playback only).
    public static func bluetoothA2DP(_ address: String = "00:11:22:33:44:55") -> SimulatedDevice {
        SimulatedDevice(
            sink: "bluez_output.\(address.replacingOccurrences(of: ":", with: "_")).a2dp", source: nil,
            description: "BT Headset",
            properties: ["device.bus": "bluetooth", "api.bluez5.address": address, "api.bluez5.profile": "a2dp-sink",
                         "device.form_factor": "headset"],
            inputProperties: [:])
    }

    /// A Bluetooth headset in HFP (playback and its microphone).
    public static func bluetoothHFP(_ address: String = "00:11:22:33:44:55") -> SimulatedDevice {
        let base = address.replacingOccurrences(of: ":", with: "_")
        let properties = ["device.bus": "bluetooth", "api.bluez5.address": address,
                          "api.bluez5.profile": "headset-head-unit", "device.form_factor": "headset"]
        return SimulatedDevice(sink: "bluez_output.\(base).hfp", source: "bluez_input.\(base).hfp",
                               description: "BT Headset", properties: properties, inputProperties: properties)
    }
}
