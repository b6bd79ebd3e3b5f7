// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// mpv with its MPRIS plugin, on headphones that go. WirePlumber 0.5.11 and later (PipeWire 1.6 here)
/// pause MPRIS players themselves when their output goes (`linking.pause-playback`); the bridge's
/// privacy rule does the same. The two must not fight: a player paused at an unplug is not played
/// again by the bridge, and the two pauses do not stop a later call from pausing and resuming it.
@Suite("An unmodified player whose headphones go", .serialized, .threadOfItsOwn)
struct UnpluggedPlayerTests {
    @Test("mpv paused by a call stays paused when the call ends if its headphones went during the call",
          arguments: SoundServerKind.underTest)
    func pausedByCallThenUnplugged(kind: SoundServerKind) throws {
        let rig = try Rig(kind)
        defer { rig.scenario.stop() }
        let call = try rig.client.createSession("call")
        try rig.client.setCategory(call.path, "playAndRecord", mode: "voiceChat")
        try rig.client.setActive(call.path, true)
        try waitUntil("the call to pause mpv (status \(rig.player.status))") { rig.player.status == "Paused" }
        try rig.unplugHeadphones()
        try rig.client.setActive(call.path, false, options: ["notifyOthersOnDeactivation"])
        try RealPlayerTests.expectNotPlayedAgain(rig.scenario, rig.player)
    }

    @Test("mpv paused at an unplug plays on the speakers when the user says so, and a call then pauses and resumes it",
          arguments: SoundServerKind.underTest)
    func unpluggedThenCall(kind: SoundServerKind) throws {
        let rig = try Rig(kind)
        defer { rig.scenario.stop() }
        try rig.unplugHeadphones()
        try waitUntil("mpv to pause when its headphones go (status \(rig.player.status))") { rig.player.status == "Paused" }
        if kind == .pipewire16 {
            // Both paused it: WirePlumber (linking.pause-playback) and the bridge (its privacy rule). The
            // user plays it once mpv has answered WirePlumber's pause.
            try waitUntil("WirePlumber to pause mpv too (it printed: \(rig.scenario.server.graphManagerOutput))") {
                let printed = rig.scenario.server.graphManagerOutput
                return printed.contains("pausing linked media player org.mpris.MediaPlayer2.mpv")
                    && printed.contains("pause completed")
            }
        }
        try rig.player.send("Play")
        try waitUntil("mpv to play on the speakers (status \(rig.player.status))") { rig.player.status == "Playing" }
        try RealPlayerTests.callPausesAndResumes(rig.player, rig.stream, rig.client, rig.scenario)
    }

    /// A bridge with mpv playing on wired headphones, its session seen by the bridge on them.
    struct Rig {
        let scenario: Scenario
        let player: MPRISPlayer
        let stream: ReportedStream
        let client: BusClient
        let headphones: [String]

        init(_ kind: SoundServerKind) throws {
            scenario = try Scenario(kind)
            let server = scenario.server
            let log: String
            (player, log, _) = try RealPlayerTests.startMPV(server)
            stream = try server.reportedStream(of: "mpv")
            client = try scenario.client()
            _ = try ShippedPolicyTests.session(of: "mpv", client, log: log)
            headphones = try server.plug(.wiredHeadphones)
            try server.move(sinkInput: stream.index, to: "headphones")
            try waitUntil("the bridge to see mpv on the headphones (\(routeChanges()))") {
                routeChanges().contains { "\($0["currentRoute"] ?? "")".contains("headphones") }
            }
        }

        /// The event log's records that name mpv.
        func mpvRecords() -> [[String: Any]] { scenario.daemon.records.filter { $0["app"] as? String == "mpv" } }

        func routeChanges() -> [[String: Any]] { mpvRecords().filter { $0["event"] as? String == "route.change" } }

        /// Unplugs the headphones and waits until the bridge has reported mpv's route without them.
        func unplugHeadphones() throws {
            let before = routeChanges().count
            for module in headphones { try scenario.server.unloadModule(module) }
            try waitUntil("the bridge to report mpv's route without the headphones (\(routeChanges()))") {
                routeChanges().dropFirst(before).contains { !"\($0["currentRoute"] ?? "")".contains("headphones") }
            }
        }
    }
}
