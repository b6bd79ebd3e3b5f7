// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// One channel of a port (`AVAudioSessionChannelDescription`).
public final class AudioSessionChannelDescription: Sendable {
    /// The channel's name, such as `front-left`.
    public let channelName: String
    /// 1-based, as on Apple's platforms.
    public let channelNumber: Int
    /// The ``AudioSessionPortDescription/uid`` of the port the channel belongs to.
    public let owningPortUID: String

    init(channelName: String, channelNumber: Int, owningPortUID: String) {
        self.channelName = channelName
        self.channelNumber = channelNumber
        self.owningPortUID = owningPortUID
    }
}

/// An input or output of a route (`AVAudioSessionPortDescription`).
public final class AudioSessionPortDescription: Sendable, Equatable, CustomStringConvertible {
    /// What kind of port it is (`.headphones`, `.builtInSpeaker`, …).
    public let portType: AudioSession.Port
    /// The port's name, for people.
    public let portName: String
    /// An identifier of the port that stays the same while the device is there.
    public let uid: String
    /// The port's channels.
    public let channels: [AudioSessionChannelDescription]?

    /// The description of a port as the bridge reports it.
    public init(_ port: PortDescription) {
        portType = port.portType
        portName = port.portName
        uid = port.uid
        channels = port.channels.enumerated().map {
            AudioSessionChannelDescription(channelName: $0.element, channelNumber: $0.offset + 1, owningPortUID: port.uid)
        }
    }

    /// The model's value.
    public var port: PortDescription {
        PortDescription(portType: portType, portName: portName, uid: uid, channels: channels?.map(\.channelName) ?? [])
    }

    /// Whether two descriptions describe the same port.
    public static func == (lhs: AudioSessionPortDescription, rhs: AudioSessionPortDescription) -> Bool { lhs.port == rhs.port }
    /// The port, for people: its type, name and uid.
    public var description: String { port.description }
}

/// The inputs and outputs of a route (`AVAudioSessionRouteDescription`).
public final class AudioSessionRouteDescription: Sendable, Equatable, CustomStringConvertible {
    /// The route's inputs.
    public let inputs: [AudioSessionPortDescription]
    /// The route's outputs.
    public let outputs: [AudioSessionPortDescription]

    /// The description of a route as the bridge reports it.
    public init(_ route: RouteDescription) {
        inputs = route.inputs.map(AudioSessionPortDescription.init)
        outputs = route.outputs.map(AudioSessionPortDescription.init)
    }

    /// Whether two descriptions describe the same route.
    public static func == (lhs: AudioSessionRouteDescription, rhs: AudioSessionRouteDescription) -> Bool {
        lhs.inputs == rhs.inputs && lhs.outputs == rhs.outputs
    }
    /// The route, for people: its inputs and outputs.
    public var description: String { "inputs: \(inputs) outputs: \(outputs)" }
}
