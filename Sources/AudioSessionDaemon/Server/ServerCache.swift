// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import PulseAudioClient

/// The bridge's own copy of the server's objects. Removed objects can no longer be queried, so the
/// cache keeps each object's last state until its removal has been handled.
public struct ServerCache: Sendable {
    public var server: PulseServerInfo?
    public var sinks: [UInt32: PulseDevice] = [:]
    public var sources: [UInt32: PulseDevice] = [:]
    public var sinkInputs: [UInt32: PulseStream] = [:]
    public var sourceOutputs: [UInt32: PulseStream] = [:]
    public var cards: [UInt32: PulseCard] = [:]
    public var clients: [UInt32: PulseClientInfo] = [:]

    public init() {}

    /// Whether the cache holds an object of that facility and index.
    public func contains(_ facility: PulseFacility, _ index: UInt32) -> Bool {
        switch facility {
        case .sink: sinks[index] != nil
        case .source: sources[index] != nil
        case .sinkInput: sinkInputs[index] != nil
        case .sourceOutput: sourceOutputs[index] != nil
        case .card: cards[index] != nil
        case .client: clients[index] != nil
        case .server: server != nil
        }
    }

    /// Forgets an object; returns whether it was known.
    @discardableResult
    public mutating func remove(_ facility: PulseFacility, _ index: UInt32) -> Bool {
        switch facility {
        case .sink: sinks.removeValue(forKey: index) != nil
        case .source: sources.removeValue(forKey: index) != nil
        case .sinkInput: sinkInputs.removeValue(forKey: index) != nil
        case .sourceOutput: sourceOutputs.removeValue(forKey: index) != nil
        case .card: cards.removeValue(forKey: index) != nil
        case .client: clients.removeValue(forKey: index) != nil
        case .server: false
        }
    }

    /// The stream of an engine id.
    public func stream(_ id: StreamID) -> PulseStream? {
        id.direction == .output ? sinkInputs[id.index] : sourceOutputs[id.index]
    }
}
