// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// Coexistence with a sound server's own policy (DESIGN §2, "Cork, duck, silence"). WirePlumber 0.5's
/// role-based linking policy, when configured, routes streams by `media.role` to media-role sinks
/// (`policy.role-based.target`) and itself ducks (a lower volume on the role sink's loopback) or corks
/// (unlinks) the streams of a lower-priority role while a higher one plays. The bridge does not duck
/// what WirePlumber ducks: a stream on a role sink keeps its own volume, so nothing is ducked twice.
/// It still tells every session what happened, and still mutes interrupted streams; WirePlumber links
/// them again when its higher role ends, and the bridge unmutes them when the interruption ends, so
/// neither leaves a stream silenced.
extension PolicyEngine {
    /// The name of WirePlumber 0.5's role-based linking policy in the event log.
    static let wirePlumberRoleBasedPolicy = "wireplumber-role-based"

    /// Whether a stream plays to a sink whose server policy ducks it by itself.
    func isDuckedByServerPolicy(_ stream: TrackedStream) -> Bool {
        stream.info.id.direction == .output && stream.effectiveDevice.map { roleBasedTargets.contains($0) } == true
    }

    /// Notes the role sinks that came or went; the event log says when the server's policy starts or
    /// stops being in force.
    mutating func noteServerPolicy(of info: DeviceInfo, present: Bool) {
        let wasInForce = !roleBasedTargets.isEmpty
        if present && info.isRoleBasedTarget { roleBasedTargets.insert(info.id) } else { roleBasedTargets.remove(info.id) }
        guard wasInForce != !roleBasedTargets.isEmpty else { return }
        emit(.record(.serverPolicy(Self.wirePlumberRoleBasedPolicy, inForce: !roleBasedTargets.isEmpty,
                                   devices: roleBasedTargets.sorted().compactMap { devices[$0]?.name })))
    }
}
