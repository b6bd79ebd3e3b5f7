// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel
import Testing

/// Coexistence with WirePlumber 0.5's role-based linking policy: the bridge does not duck the streams
/// on its media-role sinks (WirePlumber does), and still mutes and unmutes interrupted ones.
@Suite("The server's own role-based policy")
struct ServerPolicyTests {
    static let roleSinkProperties = ["policy.role-based.target": "true", "policy.role-based.priority": "10",
                                     "device.intended_roles": "[ \"Music\" ]"]
    static let user: UInt32 = 0xC000

    /// A music player on a role sink and another on the speaker.
    static func twoPlayers() -> (scene: Scene, onRoleSink: StreamID, onSpeaker: StreamID, roleSink: DeviceID) {
        var scene = Scene()
        let roleSink = scene.plug(.output, "role.multimedia", "Multimedia", properties: roleSinkProperties)
        let onRoleSink = scene.startStream("Music Player", role: "music")
        scene.userMoves(onRoleSink, to: roleSink)
        let onSpeaker = scene.startStream("Game")
        scene.settle()
        return (scene, onRoleSink, onSpeaker, roleSink)
    }

    func serverPolicyRecords(_ scene: Scene) -> [(inForce: Bool, devices: [String])] {
        scene.actions.compactMap {
            if case .record(.serverPolicy(PolicyEngine.wirePlumberRoleBasedPolicy, let inForce, let devices)) = $0 {
                (inForce, devices)
            } else { nil }
        }
    }

    @Test("the log says when the server's role-based policy comes into force and when it goes")
    func recordedWhenInForce() {
        var scene = Scene()
        let first = scene.plug(.output, "role.multimedia", "Multimedia", properties: Self.roleSinkProperties)
        let second = scene.plug(.output, "role.navigation", "Navigation", properties: Self.roleSinkProperties)
        #expect(serverPolicyRecords(scene).map(\.inForce) == [true], "once, for the first role sink")
        #expect(serverPolicyRecords(scene).first?.devices == ["role.multimedia"])
        scene.mark()
        scene.unplug(first)
        #expect(serverPolicyRecords(scene).isEmpty, "still in force while a role sink is left")
        scene.unplug(second)
        #expect(serverPolicyRecords(scene).map(\.inForce) == [false])
    }

    /// Each row: what ducks, and whether the stream on the role sink keeps the user's volume.
    @Test("a ducking session lowers the stream on the speaker, not the one the server's policy ducks",
          arguments: ["Navigation", "duckOthers session"])
    func noDoubleDucking(ducker: String) {
        var (scene, onRoleSink, onSpeaker, _) = Self.twoPlayers()
        if ducker == "Navigation" {
            scene.startStream("Navigation")
        } else {
            _ = scene.activeSession("maps", .playback, mode: .voicePrompt, options: .duckOthers)
        }
        scene.settle()
        #expect(scene.volume(onRoleSink) == Self.user, "WirePlumber ducks it on its role sink")
        #expect(scene.volume(onSpeaker) < Self.user, "ducked by the bridge")
    }

    @Test("a call mutes the stream on a role sink and unmutes it when it ends")
    func callStillMutes() {
        var (scene, onRoleSink, _, _) = Self.twoPlayers()
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        scene.settle()
        #expect(scene.isMuted(onRoleSink))
        scene.setActive(call, false, notify: true)
        scene.settle()
        #expect(scene.levels(onRoleSink) == StreamLevels(volume: ChannelVolumes(channels: 2, value: Self.user), mute: false))
        #expect(scene.journal.isEmpty)
    }

    @Test("a ducked stream moved onto a role sink gets the user's volume back; moved off, it is ducked again")
    func movingOntoARoleSink() {
        var (scene, onRoleSink, onSpeaker, roleSink) = Self.twoPlayers()
        _ = scene.activeSession("maps", .playback, mode: .voicePrompt, options: .duckOthers)
        scene.settle()
        #expect(scene.volume(onSpeaker) < Self.user)
        scene.userMoves(onSpeaker, to: roleSink)
        scene.settle()
        #expect(scene.volume(onSpeaker) == Self.user)
        scene.userMoves(onRoleSink, to: scene.speaker)
        scene.settle()
        #expect(scene.volume(onRoleSink) < Self.user)
    }
}
