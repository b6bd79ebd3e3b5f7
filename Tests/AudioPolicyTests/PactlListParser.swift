// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionModel
import Foundation

/// Reads the text of `pactl list sinks` / `pactl list sources` into the engine's device descriptions,
/// for classifying real hardware descriptions kept as fixtures.
enum PactlListParser {
    static let portTypes: [String: ServerPortType] = [
        "Unknown": .unknown, "Aux": .aux, "Speaker": .speaker, "Headphones": .headphones, "Line": .line, "Mic": .mic,
        "Headset": .headset, "Handset": .handset, "Earpiece": .earpiece, "SPDIF": .spdif, "HDMI": .hdmi, "TV": .tv,
        "Radio": .radio, "Video": .video, "USB": .usb, "Bluetooth": .bluetooth, "Portable": .portable,
        "Handsfree": .handsfree, "Car": .car, "HiFi": .hifi, "Phone": .phone, "Network": .network, "Analog": .analog,
    ]

    static func parse(_ text: String) -> [DeviceInfo] {
        var devices: [DeviceInfo] = []
        var current: DeviceInfo?
        var section = ""
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw)
            if line.hasPrefix("Sink #") || line.hasPrefix("Source #") {
                if let current { devices.append(current) }
                let direction: Direction = line.hasPrefix("Sink") ? .output : .input
                let index = UInt32(line.split(separator: "#")[1]) ?? 0
                current = DeviceInfo(id: DeviceID(direction, index), name: "", description: "")
                section = ""
                continue
            }
            guard current != nil else { continue }
            if line.hasPrefix("\t\t") {
                let item = line.trimmingCharacters(in: .whitespaces)
                if section == "Properties", let equals = item.range(of: " = ") {
                    current!.properties[String(item[..<equals.lowerBound])] =
                        String(item[equals.upperBound...]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                } else if section == "Ports", let port = parsePort(item) {
                    current!.ports.append(port)
                }
            } else if line.hasPrefix("\t"), let colon = line.range(of: ":") {
                let key = line[..<colon.lowerBound].trimmingCharacters(in: .whitespaces)
                let value = line[colon.upperBound...].trimmingCharacters(in: .whitespaces)
                section = key
                switch key {
                case "Name": current!.name = value
                case "Description": current!.description = value
                case "Channel Map": current!.channels = value.split(separator: ",").map(String.init)
                case "Mute": current!.mute = value == "yes"
                case "Active Port": current!.activePort = value
                case "Monitor of Sink": current!.isMonitor = value != "n/a"
                case "Sample Specification":
                    current!.sampleRate = Double(value.split(separator: " ").last?.dropLast(2) ?? "") ?? 0
                default: break
                }
            }
        }
        if let current { devices.append(current) }
        return devices
    }

    /// `name: Description (type: Speaker, priority: 10000, availability unknown)`.
    static func parsePort(_ item: String) -> DevicePort? {
        guard let colon = item.range(of: ": "), let details = item.range(of: " (type: ", options: .backwards) else {
            return nil
        }
        let name = String(item[..<colon.lowerBound])
        let description = String(item[colon.upperBound..<details.lowerBound])
        let fields = item[details.upperBound...].dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let availability: PortAvailability = switch fields.last {
        case "available": .yes
        case "not available": .no
        default: .unknown
        }
        return DevicePort(name: name, description: description, availability: availability,
                          serverType: portTypes[fields.first ?? ""] ?? .unknown)
    }
}
