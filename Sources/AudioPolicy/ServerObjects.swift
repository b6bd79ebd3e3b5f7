// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// The sound server's own port types (`pa_device_port_type_t`).
public enum ServerPortType: Int, Hashable, Sendable {
    case unknown = 0, aux, speaker, headphones, line, mic, headset, handset, earpiece, spdif, hdmi, tv,
        radio, video, usb, bluetooth, portable, handsfree, car, hifi, phone, network, analog
}

/// Whether a port is plugged in, as the server knows it (`pa_port_available_t`).
public enum PortAvailability: Int, Hashable, Sendable {
    case unknown = 0, no = 1, yes = 2
}

/// One port of a sink or source.
public struct DevicePort: Hashable, Sendable {
    public var name: String
    public var description: String
    public var availability: PortAvailability
    public var serverType: ServerPortType

    public init(name: String, description: String, availability: PortAvailability = .unknown,
                serverType: ServerPortType = .unknown) {
        self.name = name
        self.description = description
        self.availability = availability
        self.serverType = serverType
    }
}

/// A sink or source as the sound server describes it.
public struct DeviceInfo: Hashable, Sendable {
    public var id: DeviceID
    public var name: String
    public var description: String
    public var ports: [DevicePort]
    public var activePort: String?
    /// The device's property list (`device.form_factor`, `device.bus`, `api.bluez5.profile`, …).
    public var properties: [String: String]
    /// Channel names in order (`front-left`, …).
    public var channels: [String]
    public var sampleRate: Double
    /// The configured latency, in seconds.
    public var latency: Double
    public var volume: ChannelVolumes
    public var mute: Bool
    public var card: UInt32?
    /// Whether this source only monitors a sink (never a route input).
    public var isMonitor: Bool

    public init(
        id: DeviceID, name: String, description: String, ports: [DevicePort] = [], activePort: String? = nil,
        properties: [String: String] = [:], channels: [String] = ["front-left", "front-right"],
        sampleRate: Double = 48000, latency: Double = 0, volume: ChannelVolumes? = nil, mute: Bool = false,
        card: UInt32? = nil, isMonitor: Bool = false
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.ports = ports
        self.activePort = activePort
        self.properties = properties
        self.channels = channels
        self.sampleRate = sampleRate
        self.latency = latency
        self.volume = volume ?? ChannelVolumes(channels: channels.count, value: ChannelVolumes.norm)
        self.mute = mute
        self.card = card
        self.isMonitor = isMonitor
    }

    /// The active port, if the device has ports.
    public var activePortInfo: DevicePort? { ports.first { $0.name == activePort } }

    /// The route uid: `device:port`, or the device name when it has no active port.
    public var uid: String { activePort.map { "\(name):\($0)" } ?? name }

    /// What identifies the same physical Bluetooth device across profile switches, when it is one.
    public var bluetoothAddress: String? {
        if let address = properties["api.bluez5.address"] { return address }
        if properties["device.bus"] == "bluetooth" { return properties["device.string"] ?? name }
        return nil
    }

    /// Whether the device is a media-role sink of WirePlumber 0.5's role-based linking policy, which
    /// ducks and corks the streams linked to it by itself.
    public var isRoleBasedTarget: Bool { properties["policy.role-based.target"] == "true" }

    /// The port description of this device's active port, as a route shows it.
    public var portDescription: PortDescription {
        PortDescription(
            portType: PortClassifier.portType(of: self), portName: description, uid: uid, channels: channels)
    }
}

/// A card and its profiles, for switching a Bluetooth headset between A2DP and HFP.
public struct CardInfo: Hashable, Sendable {
    public struct Profile: Hashable, Sendable {
        public var name: String
        public var isAvailable: Bool
        public init(name: String, isAvailable: Bool = true) {
            self.name = name
            self.isAvailable = isAvailable
        }
        /// What names a profile that carries a headset microphone (Bluetooth HFP/HSP), in a card's
        /// profile or a device's `api.bluez5.profile`.
        static let handsFreeMarks = ["headset", "handsfree", "hfp", "hsp"]
        /// Whether the profile carries a headset microphone (Bluetooth HFP/HSP).
        public var isHandsFree: Bool { Self.handsFreeMarks.contains { name.containsASCII($0) } }
    }

    public var index: UInt32
    public var name: String
    public var profiles: [Profile]
    public var activeProfile: String?

    public init(index: UInt32, name: String, profiles: [Profile], activeProfile: String?) {
        self.index = index
        self.name = name
        self.profiles = profiles
        self.activeProfile = activeProfile
    }
}

/// A sink-input or source-output as the sound server describes it.
public struct StreamInfo: Hashable, Sendable {
    public var id: StreamID
    public var app: AppIdentity
    /// `media.role`, if set.
    public var role: String?
    /// `audiosession.token`, if set.
    public var token: String?
    /// The trusted process id of the stream followed by its ancestors, nearest first.
    public var processChain: [Int32]
    /// The sink or source the stream plays to or records from.
    public var device: DeviceID?
    public var corked: Bool
    public var mute: Bool
    public var volume: ChannelVolumes
    /// `module-stream-restore.id`: the key under which the server remembers the stream's levels.
    public var restoreKey: String?
    /// `media.name`: what the app calls the stream (a call engine names itself there).
    public var mediaName: String?
    /// Whether the server was asked for these levels before the bridge's last command to the stream
    /// went out. They are then older than that command, which the server has carried out since: a
    /// change among them was made before the bridge's command, not over it.
    public var levelsPrecedeLastCommand = false
    /// Whether the server may answer a query before it has carried out a level command sent earlier on
    /// the same connection (pipewire-pulse applies a volume or mute to the node a loop turn later;
    /// PulseAudio carries out each command before it reads the next).
    public var answersMayPrecedeCommands = false
    /// Whether the server announced the stream before it knew the stream's levels: pipewire-pulse
    /// reports a new stream at zero volume first, and its levels (WirePlumber's memory, the app's own)
    /// in the next report. The engine takes the stream from that next report on.
    public var levelsNotYetKnown = false

    public init(
        id: StreamID, app: AppIdentity, role: String? = nil, token: String? = nil, processChain: [Int32] = [],
        device: DeviceID?, corked: Bool = false, mute: Bool = false,
        volume: ChannelVolumes = ChannelVolumes(channels: 2, value: ChannelVolumes.norm), restoreKey: String? = nil,
        mediaName: String? = nil
    ) {
        self.id = id
        self.app = app
        self.role = role
        self.token = token
        self.processChain = processChain
        self.device = device
        self.corked = corked
        self.mute = mute
        self.volume = volume
        self.restoreKey = restoreKey
        self.mediaName = mediaName
    }

    /// The volume and mute the server reports.
    public var levels: StreamLevels { StreamLevels(volume: volume, mute: mute) }
}
