// SPDX-License-Identifier: Apache-2.0
import Foundation

/// WirePlumber 0.5's role-based linking policy on the private PipeWire 1.4 and 1.6 stacks: media-role sinks made
/// with `pw-loopback`, as a user's configuration would, and WirePlumber's own duck read back with
/// `pw-dump`.
extension SoundServer {
    /// A media-role sink of the role-based policy: the roles it takes, its priority, and what it does to
    /// lower-priority roles while it plays (`mix`, `duck` or `cork`).
    public struct RoleSink: Sendable {
        public var name: String
        public var roles: [String]
        public var priority: Int
        public var lowerPriorityAction: String

        public static let multimedia = RoleSink(name: "role.multimedia", roles: ["Music", "Movie", "Game", "Multimedia"],
                                                priority: 10, lowerPriorityAction: "mix")
        public static let navigation = RoleSink(name: "role.navigation", roles: ["Navigation", "navigation"],
                                                priority: 20, lowerPriorityAction: "duck")
        public static let communication = RoleSink(name: "role.communication", roles: ["Communication"],
                                                   priority: 30, lowerPriorityAction: "cork")
    }

    /// Starts the role sinks (WirePlumber 0.5: PipeWire 1.4 and 1.6) and waits until pipewire-pulse shows them.
    public func startRoleBasedPolicy(_ sinks: [RoleSink] = [.multimedia, .navigation, .communication]) throws {
        guard kind.hasWirePlumber05 else { throw HarnessError("the role-based policy is WirePlumber 0.5's") }
        for sink in sinks {
            let roles = sink.roles.map { "\"\($0)\"" }.joined(separator: " ")
            let capture = """
                { node.name = "\(sink.name)" node.description = "\(sink.name)" media.class = "Audio/Sink" \
                audio.position = [ FL FR ] device.intended-roles = [ \(roles) ] \
                policy.role-based.priority = \(sink.priority) policy.role-based.action.same-priority = "mix" \
                policy.role-based.action.lower-priority = "\(sink.lowerPriorityAction)" policy.role-based.target = true }
                """
            let playback = "{ node.name = \"\(sink.name).output\" node.passive = true }"
            _ = try spawnPipeWire("pw-loopback", ["-n", sink.name, "--capture-props=\(capture)", "--playback-props=\(playback)"])
        }
        try waitUntil("the role sinks") {
            let names = try pactl(["list", "short", "sinks"])
            return sinks.allSatisfy { names.contains($0.name) }
        }
    }

    /// The `volume` WirePlumber set on a PipeWire node (its duck of a role sink's loopback), from `pw-dump`.
    public func pipeWireNodeVolume(_ nodeName: String) throws -> Double? {
        let objects = try pipeWireObjects()
        for object in objects where object["type"] as? String == "PipeWire:Interface:Node" {
            let info = object["info"] as? [String: Any]
            guard (info?["props"] as? [String: Any])?["node.name"] as? String == nodeName else { continue }
            let props = ((info?["params"] as? [String: Any])?["Props"] as? [[String: Any]])?.first
            return props?["volume"] as? Double
        }
        return nil
    }
}
