// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// WirePlumber 0.5's role-based linking policy (media-role sinks that duck and cork by priority) and
/// the bridge: the bridge says so in its log, ducks nothing twice, and leaves nothing silenced.
@Suite("Coexistence with WirePlumber 0.5's role-based policy", .serialized, .threadOfItsOwn)
struct RoleBasedPolicyTests {
    static let userVolume: UInt32 = 50000

    @Test("navigation is ducked by WirePlumber alone, a call mutes music until it ends, and the log names the policy",
          arguments: SoundServerKind.underTest([.pipewire14, .pipewire16]))
    func roleBasedPolicy(kind: SoundServerKind) throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        try server.startRoleBasedPolicy()
        let daemon = try BridgeDaemon(server: server)
        defer { daemon.terminate() }
        try waitUntil("the log to name the server's policy") {
            daemon.records.contains { $0["event"] as? String == "server.policy" && $0["inForce"] as? Bool == true
                && $0["policy"] as? String == "wireplumber-role-based" }
        }

        // A player that never opted in; WirePlumber links it to the multimedia role sink.
        try server.playDetached(app: "tunes", role: "music")
        let music = try server.reportedStream(of: "tunes")
        let multimedia = try #require(try server.deviceIndex(named: "role.multimedia"))
        try waitUntil("WirePlumber to link the music to its role sink (\((try? server.pactl(["list", "short", "sink-inputs"])) ?? ""); \((try? server.pactl(["list", "short", "sinks"])) ?? ""); \(daemon.records.filter { $0["event"] as? String == "action" })") { try server.reportedStream(index: music.index)?.device == multimedia }
        try server.pactl(["set-sink-input-volume", "\(music.index)", "\(Self.userVolume)"])
        try waitUntil("the user's volume") { try Self.levels(music, server) == (Self.userVolume, false) }

        // Navigation prompts duck others: an app's explicit session with duckOthers and its stream.
        let client = try BusClient(address: server.busAddress!)
        let maps = try client.createSession("maps")
        try client.setCategory(maps.path, "playback", mode: "voicePrompt", options: ["duckOthers"])
        try client.setActive(maps.path, true)
        let prompt = try server.play(app: "maps", role: "navigation", properties: ["audiosession.token": maps.token])
        let promptStream = try server.reportedStream(of: "maps")
        try waitUntil("WirePlumber to duck the multimedia role sink (now \(String(describing: try? server.pipeWireNodeVolume("role.multimedia.output"))))") {
            (try server.pipeWireNodeVolume("role.multimedia.output")).map { $0 < 0.99 } == true
        }
        try waitUntil("the bridge to take the prompt into its session") {
            daemon.records.contains { $0["event"] as? String == "stream.added" && $0["stream"] as? String == "sink-input/\(promptStream.index)" }
        }
        #expect(try Self.levels(music, server) == (Self.userVolume, false), "the bridge does not duck it again")
        #expect(!daemon.records.contains { $0["event"] as? String == "action" && $0["stream"] as? String == "sink-input/\(music.index)" })
        prompt.stop()
        try waitUntil("the bridge to see the prompt end") {
            daemon.records.contains { $0["event"] as? String == "stream.removed" && $0["stream"] as? String == "sink-input/\(promptStream.index)" }
        }
        try client.setActive(maps.path, false)
        try waitUntil("WirePlumber to bring the role sink back") { try server.pipeWireNodeVolume("role.multimedia.output") == 1.0 }

        // A call: the bridge mutes the music while it lasts and puts it back after.
        let call = try server.playDetached(app: "softphone", role: "phone")
        try waitUntil("the call to mute the music") { try Self.levels(music, server).mute }
        kill(call, SIGKILL)
        try waitUntil("the music unmuted at the user's volume") { try Self.levels(music, server) == (Self.userVolume, false) }
        #expect(try server.reportedStream(index: music.index)?.device == multimedia)
    }

    static func levels(_ stream: ReportedStream, _ server: SoundServer) throws -> (volume: UInt32, mute: Bool) {
        let now = try #require(try server.reportedStream(index: stream.index))
        return (now.volume.values.max() ?? 0, now.mute)
    }

}
