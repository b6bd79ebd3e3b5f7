// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// Decides a device's port type from, in order: the server's port type, the Bluetooth profile,
/// `device.form_factor`, `device.bus`, and the port and device names.
/// FireWire, Thunderbolt and AVB links (`device.bus`, `device.api`) name the port after the Bluetooth profile. Two refinements: on a Bluetooth
/// device the profile comes first (the server types its port by form factor only), and the server's
/// `Analog`/`Unknown` types say nothing and are passed over.
public enum PortClassifier {
    /// The port type of the device's active port.
    public static func portType(of device: DeviceInfo) -> PortType {
        let output = device.id.direction == .output
        if device.isMonitor { return .virtual }  // a sink's monitor is never a route input
        let port = device.activePortInfo
        let names = [port?.name, port?.description, device.name, device.description].compactMap { $0 }
        // A Bluetooth device's port type is only its form factor (a headset is "Headset" whatever its
        // profile), so for Bluetooth the profile decides first.
        if let type = fromBluetooth(device.properties, output: output) { return type }
        // FireWire, Thunderbolt and AVB interfaces are named by their link, as Apple names them,
        // whatever their (analog) ports say.
        if let type = fromInterface(device.properties) { return type }
        if let port, let type = fromServerType(port.serverType, output: output, names: names) {
            // ALSA names every HDMI/DP port "hdmi-output-N"; only a description that says DisplayPort
            // and not HDMI tells them apart.
            let label = port.description
            if type == .hdmiOutput && label.containsASCII("displayport", ignoringCase: true)
                && !label.containsASCII("hdmi", ignoringCase: true)
            {
                return .displayPort
            }
            return type
        }
        if let type = fromFormFactor(device.properties["device.form_factor"], output: output) { return type }
        if let type = fromBus(device.properties["device.bus"], output: output, properties: device.properties) {
            return type
        }
        return fromNames(names, output: output)
    }

    /// Whether any of the names holds any of the needles (lower case), whatever the names' case.
    private static func contains(_ names: [String], _ needles: String...) -> Bool { contains(names, needles) }

    private static func contains(_ names: [String], _ needles: [String]) -> Bool {
        names.contains { name in needles.contains { name.containsASCII($0, ignoringCase: true) } }
    }

    private static func fromServerType(_ type: ServerPortType, output: Bool, names: [String]) -> PortType? {
        switch type {
        case .unknown, .analog: return nil  // says nothing about what is plugged in
        case .speaker: return output ? .speaker : nil
        case .headphones: return output ? .headphones : .microphoneWired
        case .headset: return output ? .headphones : .microphoneWired
        case .handset, .earpiece, .phone: return output ? .receiver : .microphoneBuiltIn
        case .mic:
            return contains(names, "internal", "built-in", "builtin") ? .microphoneBuiltIn : .microphoneWired
        case .line, .aux, .hifi, .radio, .video: return output ? .lineOut : .lineIn
        case .spdif: return output ? .lineOut : .lineIn
        case .hdmi, .tv: return output ? .hdmiOutput : .lineIn
        case .usb: return .usbAudio
        case .bluetooth: return nil  // the profile decides, below
        case .handsfree: return .bluetoothHFP
        case .portable: return output ? .headphones : .microphoneWired
        case .car: return .carAudio
        case .network: return output ? .airPlay : .lineIn
        }
    }

    private static func isBluetooth(_ properties: [String: String]) -> Bool {
        properties["device.bus"] == "bluetooth" || properties["device.api"] == "bluez5"
            || properties["api.bluez5.address"] != nil
    }

    private static func fromBluetooth(_ properties: [String: String], output: Bool) -> PortType? {
        guard isBluetooth(properties) else { return nil }
        let profile = [properties["api.bluez5.profile"] ?? properties["bluetooth.protocol"]
            ?? properties["device.profile.name"] ?? ""]
        if contains(profile, "bap", "le-audio", "lc3") { return .bluetoothLE }
        if contains(profile, CardInfo.Profile.handsFreeMarks) || !output { return .bluetoothHFP }
        return .bluetoothA2DPOutput
    }

    private static func fromInterface(_ properties: [String: String]) -> PortType? {
        switch properties["device.bus"] {
        case "firewire", "ieee1394": return .fireWire
        case "thunderbolt": return .thunderbolt
        default: break
        }
        if properties["device.api"] == "avb" || properties["device.bus"] == "avb" { return .avb }
        return nil
    }

    private static func fromFormFactor(_ formFactor: String?, output: Bool) -> PortType? {
        switch formFactor {
        case "internal", "computer", "speaker": output ? .speaker : .microphoneBuiltIn
        case "handset": output ? .receiver : .microphoneBuiltIn
        case "headphone", "headset", "hands-free": output ? .headphones : .microphoneWired
        case "microphone", "webcam": output ? nil : .microphoneWired
        case "tv": output ? .hdmiOutput : .lineIn
        case "car": .carAudio
        case "hifi": output ? .lineOut : .lineIn
        case "portable": output ? .headphones : .microphoneWired
        default: nil
        }
    }

    private static func fromBus(_ bus: String?, output: Bool, properties: [String: String]) -> PortType? {
        switch bus {
        case "usb": .usbAudio
        case "bluetooth": output ? .bluetoothA2DPOutput : .bluetoothHFP
        case "pci", "isa": nil  // say nothing about the port: the names decide
        case "network": output ? .airPlay : .lineIn
        default: nil
        }
    }

    private static func fromNames(_ names: [String], output: Bool) -> PortType {
        if output {
            if contains(names, "headphone", "headset") { return .headphones }
            if contains(names, "displayport") { return .displayPort }
            if contains(names, "hdmi") { return .hdmiOutput }
            if contains(names, "raop", "airplay") { return .airPlay }
            if contains(names, "lineout", "line-out", "line out", "iec958", "spdif") { return .lineOut }
            if contains(names, "speaker") { return .speaker }
            if contains(names, "null", "dummy", "virtual") { return .virtual }
            if contains(names, "pci", "analog") { return .speaker }
            return .virtual
        }
        if contains(names, "internal-mic", "internal mic", "built-in", "builtin") { return .microphoneBuiltIn }
        if contains(names, "headset", "headphone") { return .microphoneWired }
        if contains(names, "linein", "line-in", "line in", "line") { return .lineIn }
        if contains(names, "mic") { return .microphoneWired }
        if contains(names, "null", "dummy", "virtual") { return .virtual }
        return .microphoneBuiltIn
    }
}
