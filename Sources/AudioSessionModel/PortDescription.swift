// SPDX-License-Identifier: Apache-2.0
/// One input or output of a route (`AVAudioSessionPortDescription`).
public struct PortDescription: Hashable, Sendable, CustomStringConvertible {
    /// The kind of port.
    public var portType: PortType
    /// A name for people, such as the device description.
    public var portName: String
    /// A stable identifier, `device:port` (or the device name alone when it has no ports).
    public var uid: String
    /// The channel names, in order (`front-left`, `front-right`, `mono`, …).
    public var channels: [String]

    public init(portType: PortType, portName: String, uid: String, channels: [String]) {
        self.portType = portType
        self.portName = portName
        self.uid = uid
        self.channels = channels
    }

    public var description: String { "\(portType.rawValue)(\(uid))" }
}

/// The inputs and outputs a session uses (`AVAudioSessionRouteDescription`).
public struct RouteDescription: Hashable, Sendable, CustomStringConvertible {
    public var inputs: [PortDescription]
    public var outputs: [PortDescription]

    public init(inputs: [PortDescription] = [], outputs: [PortDescription] = []) {
        self.inputs = inputs
        self.outputs = outputs
    }

    /// No inputs and no outputs.
    public static let empty = RouteDescription()

    public var description: String {
        "in: [\(inputs.map(\.description).joined(separator: ", "))] out: [\(outputs.map(\.description).joined(separator: ", "))]"
    }
}
