// SPDX-License-Identifier: Apache-2.0
/// Which way audio flows through a device or stream.
public enum Direction: String, Hashable, Sendable, CaseIterable {
    /// Playback: sinks and sink-inputs.
    case output
    /// Recording: sources and source-outputs.
    case input
}

/// A session, numbered by the engine in order of creation.
public struct SessionID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public init(_ value: UInt32) { rawValue = value }
    public static func < (lhs: SessionID, rhs: SessionID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "session/\(rawValue)" }
}

/// A stream on the sound server: a sink-input (output) or a source-output (input) by its index.
public struct StreamID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var direction: Direction
    public var index: UInt32
    public init(_ direction: Direction, _ index: UInt32) {
        self.direction = direction
        self.index = index
    }
    public static func < (lhs: StreamID, rhs: StreamID) -> Bool {
        (lhs.direction == .output ? 0 : 1, lhs.index) < (rhs.direction == .output ? 0 : 1, rhs.index)
    }
    public var description: String { (direction == .output ? "sink-input/" : "source-output/") + "\(index)" }
}

/// A device on the sound server: a sink (output) or a source (input) by its index.
public struct DeviceID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var direction: Direction
    public var index: UInt32
    public init(_ direction: Direction, _ index: UInt32) {
        self.direction = direction
        self.index = index
    }
    public static func < (lhs: DeviceID, rhs: DeviceID) -> Bool {
        (lhs.direction == .output ? 0 : 1, lhs.index) < (rhs.direction == .output ? 0 : 1, rhs.index)
    }
    public var description: String { (direction == .output ? "sink/" : "source/") + "\(index)" }
}

/// A pending method call that the engine answers with a ``PolicyAction/reply(_:_:)``.
public struct RequestID: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public init(_ value: UInt64) { rawValue = value }
}
