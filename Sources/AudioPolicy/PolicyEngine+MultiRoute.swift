// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// A sink the bridge combined for a `multiRoute` session: its name on the server and the outputs it
/// plays to.
public struct CombinedOutput: Hashable, Sendable {
    public var name: String
    public var outputs: [String]
}

/// `multiRoute` (DESIGN §2, "Categories that route"): an active multiRoute session plays to every
/// output at once. Its route lists every real output; with two or more, the bridge asks the server
/// for a combined sink over them (`module-combine-sink`) and moves the session's output streams
/// there; with one, the streams stay where they are. The combined sink goes when the session stops
/// being an active multiRoute session, and is made again when the outputs change.
extension PolicyEngine {
    /// The name prefix of the bridge's combined sinks (left-overs of a killed bridge are removed by it).
    public static let combinedOutputPrefix = "audiosession_multiroute_"

    /// The outputs a multiRoute session plays to: every sink that is a real port (no monitor, no
    /// virtual sink, none of the bridge's combined sinks), in the server's order.
    func multiRouteOutputs() -> [DeviceInfo] {
        devices.values
            .filter { $0.id.direction == .output && !$0.isMonitor && !Self.isCombinedOutput($0)
                && $0.portDescription.portType != .virtual }
            .sorted { $0.id < $1.id }
    }

    /// Whether a device is one of the bridge's combined sinks.
    static func isCombinedOutput(_ device: DeviceInfo) -> Bool { device.name.hasPrefix(combinedOutputPrefix) }

    /// The combined sink of a session, when the server has it.
    func combinedDevice(of id: SessionID) -> DeviceInfo? {
        combinedOutputs[id].flatMap { device(named: $0.name) }
    }

    /// Makes, remakes or removes the combined sink of one session, as its state asks.
    mutating func refreshMultiRoute(_ id: SessionID) {
        let isActiveMultiRoute = sessions[id].map { $0.isActive && $0.configuration.category == .multiRoute } == true
        let current = combinedOutputs[id]
        // Every activation passes here: most sessions have nothing to combine, and the outputs need
        // not be classified for them.
        guard isActiveMultiRoute || current != nil else { return }
        let outputs = multiRouteOutputs().map(\.name)
        let wanted = isActiveMultiRoute && outputs.count >= 2 && isServerConnected
        if wanted, current?.outputs == outputs { return }
        if let current {
            combinedOutputs[id] = nil
            emit(.removeCombinedOutput(name: current.name, why: "\(id) no longer plays to \(current.outputs.joined(separator: ", "))"))
        }
        guard wanted else { return }
        combinedOutputSerial += 1
        let combined = CombinedOutput(name: "\(Self.combinedOutputPrefix)\(id.rawValue)_\(combinedOutputSerial)", outputs: outputs)
        combinedOutputs[id] = combined
        emit(.combineOutputs(name: combined.name, outputs: outputs, why: "\(id) is multiRoute: it plays to every output"))
    }

    /// The outputs changed: every multiRoute session's combined sink follows.
    mutating func refreshAllMultiRoutes() {
        let ids = Set(combinedOutputs.keys).union(sessions.activeIDs.filter { sessions[$0]?.configuration.category == .multiRoute })
        for id in ids.sorted() { refreshMultiRoute(id) }
    }

    /// A combined sink appeared: its session's output streams move onto it.
    mutating func combinedOutputAppeared(_ info: DeviceInfo) {
        guard let id = combinedOutputs.first(where: { $0.value.name == info.name })?.key else { return }
        moveStreamsToPreferredDevices(of: id, why: "\(id) is multiRoute: its streams play to every output")
    }
}
