// SPDX-License-Identifier: Apache-2.0
/// The kind of a route's port, with Apple's raw strings (`AVAudioSession.Port`).
public enum PortType: String, VocabularyWord {
    case speaker = "Speaker"
    case receiver = "Receiver"
    case headphones = "Headphones"
    case bluetoothA2DPOutput = "BluetoothA2DPOutput"
    case bluetoothHFP = "BluetoothHFP"
    case bluetoothLE = "BluetoothLE"
    case hdmiOutput = "HDMIOutput"
    case displayPort = "DisplayPort"
    case lineOut = "LineOut"
    case usbAudio = "USBAudio"
    case carAudio = "CarAudio"
    case airPlay = "AirPlay"
    case pci = "PCI"
    case fireWire = "Firewire"
    case avb = "AVB"
    case thunderbolt = "Thunderbolt"
    case virtual = "Virtual"
    case microphoneBuiltIn = "MicrophoneBuiltIn"
    case microphoneWired = "MicrophoneWired"
    case lineIn = "LineIn"

    public static let vocabularyName = "port type"

    /// Whether audio on this port stays private to the listener (the privacy rule: media pauses when
    /// such a port goes away).
    public var isPersonal: Bool {
        switch self {
        case .headphones, .bluetoothA2DPOutput, .bluetoothHFP, .bluetoothLE, .receiver: true
        default: false
        }
    }

    /// Whether the port is a Bluetooth one.
    public var isBluetooth: Bool {
        self == .bluetoothA2DPOutput || self == .bluetoothHFP || self == .bluetoothLE
    }
}
