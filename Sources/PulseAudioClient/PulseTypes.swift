// SPDX-License-Identifier: Apache-2.0
import CPulse

/// The kinds of server objects a subscription reports.
public enum PulseFacility: String, Hashable, Sendable, CaseIterable {
    case sink, source, sinkInput, sourceOutput, client, server, card
}

/// What happened to an object.
public enum PulseChangeKind: String, Hashable, Sendable {
    case new, change, remove
}

/// One subscription event: an object of a facility was added, changed or removed.
public struct PulseChange: Hashable, Sendable, CustomStringConvertible {
    public var facility: PulseFacility
    public var kind: PulseChangeKind
    public var index: UInt32
    public init(facility: PulseFacility, kind: PulseChangeKind, index: UInt32) {
        self.facility = facility
        self.kind = kind
        self.index = index
    }
    public var description: String { "\(kind) \(facility) #\(index)" }

    /// Whether `other` is about the same object (its facility and index), whatever happened to it.
    public func isAboutSameObject(as other: PulseChange) -> Bool { facility == other.facility && index == other.index }
}

/// The server as `pa_server_info` describes it.
public struct PulseServerInfo: Hashable, Sendable {
    public var name: String
    public var version: String
    public var defaultSinkName: String?
    public var defaultSourceName: String?
}

/// A sink's or source's port (`pa_sink_port_info`, `pa_source_port_info`).
public struct PulsePort: Hashable, Sendable {
    public var name: String
    public var description: String
    public var priority: UInt32
    /// `pa_port_available_t`: 0 unknown, 1 no, 2 yes.
    public var available: Int32
    /// `pa_device_port_type_t`.
    public var type: UInt32
}

/// A sink or a source (`pa_sink_info`, `pa_source_info`).
public struct PulseDevice: Hashable, Sendable {
    public var isSink: Bool
    public var index: UInt32
    public var name: String
    public var description: String
    public var ports: [PulsePort]
    public var activePortName: String?
    public var volume: [UInt32]
    public var mute: Bool
    public var sampleRate: UInt32
    public var channelNames: [String]
    /// Microseconds.
    public var latency: UInt64
    /// Microseconds.
    public var configuredLatency: UInt64
    public var properties: [String: String]
    public var card: UInt32?
    /// For a source: the sink it monitors.
    public var monitorOfSink: UInt32?
    public var ownerModule: UInt32?
}

/// A card and its profiles (`pa_card_info`).
public struct PulseCard: Hashable, Sendable {
    public struct Profile: Hashable, Sendable {
        public var name: String
        public var description: String
        public var available: Bool
    }
    public var index: UInt32
    public var name: String
    public var profiles: [Profile]
    public var activeProfileName: String?
    public var properties: [String: String]
}

/// A client connection (`pa_client_info`).
public struct PulseClientInfo: Hashable, Sendable {
    public var index: UInt32
    public var name: String
    public var properties: [String: String]
}

/// A sink-input or source-output (`pa_sink_input_info`, `pa_source_output_info`).
public struct PulseStream: Hashable, Sendable {
    public var isSinkInput: Bool
    public var index: UInt32
    public var name: String
    public var client: UInt32?
    public var ownerModule: UInt32?
    /// The sink or source index; ``noDevice`` while the stream has none (pipewire-pulse reports a new
    /// stream before it is linked).
    public var device: UInt32
    public var corked: Bool
    public var mute: Bool
    public var volume: [UInt32]
    public var hasVolume: Bool
    public var channelNames: [String]
    public var properties: [String: String]

    /// The ``device`` of a stream that has none (`PA_INVALID_INDEX`).
    public static let noDevice = UInt32.max
}

/// A loaded module (`pa_module_info`).
public struct PulseModule: Hashable, Sendable {
    public var index: UInt32
    public var name: String
    public var argument: String
}

/// One entry of the server's stream memory (`pa_ext_stream_restore_info`).
public struct PulseRestoreEntry: Hashable, Sendable {
    public var name: String
    public var channelNames: [String]
    public var volume: [UInt32]
    public var device: String?
    public var mute: Bool

    public init(name: String, channelNames: [String], volume: [UInt32], device: String?, mute: Bool) {
        self.name = name
        self.channelNames = channelNames
        self.volume = volume
        self.device = device
        self.mute = mute
    }
}
