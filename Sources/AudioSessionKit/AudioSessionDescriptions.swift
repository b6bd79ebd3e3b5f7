// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// One channel of a port (`AVAudioSessionChannelDescription`).
public final class AudioSessionChannelDescription: Sendable {
    public let channelName: String
    /// 1-based, as on Apple's platforms.
    public let channelNumber: Int
    public let owningPortUID: String

    init(channelName: String, channelNumber: Int, owningPortUID: String) {
        self.channelName = channelName
        self.channelNumber = channelNumber
        self.owningPortUID = owningPortUID
    }
}

/// An input or output of a route (`AVAudioSessionPortDescription`).
public final class AudioSessionPortDescription: Sendable, Equatable, CustomStringConvertible {
    public let portType: AudioSession.Port
    public let portName: String
    public let uid: String
    public let channels: [AudioSessionChannelDescription]?

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

    public static func == (lhs: AudioSessionPortDescription, rhs: AudioSessionPortDescription) -> Bool { lhs.port == rhs.port }
    public var description: String { port.description }
}

/// The inputs and outputs of a route (`AVAudioSessionRouteDescription`).
public final class AudioSessionRouteDescription: Sendable, Equatable, CustomStringConvertible {
    public let inputs: [AudioSessionPortDescription]
    public let outputs: [AudioSessionPortDescription]

    public init(_ route: RouteDescription) {
        inputs = route.inputs.map(AudioSessionPortDescription.init)
        outputs = route.outputs.map(AudioSessionPortDescription.init)
    }

    public static func == (lhs: AudioSessionRouteDescription, rhs: AudioSessionRouteDescription) -> Bool {
        lhs.inputs == rhs.inputs && lhs.outputs == rhs.outputs
    }
    public var description: String { "inputs: \(inputs) outputs: \(outputs)" }
}
