// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import Testing

@Suite("MPRIS players of apps that never opt in", .serialized)
struct MPRISTests {
    @Test("a real MPRIS player on the private bus is paused by a call and played after it",
          arguments: SoundServerKind.allCases)
    func playerPausedAndPlayed(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let server = scenario.server
        // Not a child of this test, whose connection owns the call session below.
        let log = server.root + "/logs/player.log"
        try server.spawnDetached(BridgeDaemon.buildDirectory + "/mpris-test-player", ["Tunes"], log: log)
        var output: String { textSoFar(log) }
        try waitUntil("the player to play") { output.contains("ready") }
        let stream = try server.reportedStream(of: "Tunes")
        let client = try BusClient(address: server.busAddress!)
        try waitUntil("the player's policy session to be active") {
            let sessions = try client.call(BusClient.manager, BusClient.bridge, "ListSessions")[0].arrayItems ?? []
            return try sessions.contains {
                try client.property($0.stringValue ?? "", "AppId") == .string("Tunes")
                    && client.property($0.stringValue ?? "", "IsActive") == .bool(true)
            }
        }
        let call = try client.createSession("call")
        try client.setCategory(call.path, "playAndRecord", mode: "voiceChat")
        try client.setActive(call.path, true)
        try waitUntil("the bridge to pause the player") { output.contains("Pause") }
        try waitUntil("its stream muted meanwhile") { try server.reportedStream(index: stream.index)?.mute == true }
        try client.setActive(call.path, false, options: ["notifyOthersOnDeactivation"])
        try waitUntil("the bridge to play the player again") { output.contains("Play") }
        try waitUntil("its stream unmuted") { try server.reportedStream(index: stream.index)?.mute == false }
    }
}

extension MPRISTests {
    @Test("a browser-like app's player is paused by a call and not played again after it: the user acts", arguments: SoundServerKind.allCases)
    func browserNotResumed(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let (server, daemon) = (scenario.server, scenario.daemon)
        let log = server.root + "/logs/browser.log"
        let firefox = try ShippedPolicyTests.pacat(named: "firefox", in: server)
        try server.spawnDetached(BridgeDaemon.buildDirectory + "/mpris-test-player", ["Web", firefox], log: log)
        var output: String { textSoFar(log) }
        try waitUntil("the browser to play") { output.contains("ready") }
        let client = try BusClient(address: server.busAddress!)
        let session = try ShippedPolicyTests.session(of: "Web", client, log: log)
        #expect(try client.property(session, "Category") == .string("playback"))
        let call = try client.createSession("call")
        try client.setCategory(call.path, "playAndRecord", mode: "voiceChat")
        try client.setActive(call.path, true)
        try waitUntil("the bridge to pause the browser") { output.contains("Pause") }
        try client.setActive(call.path, false, options: ["notifyOthersOnDeactivation"])
        try waitUntil("the browser's interruption to end") {
            daemon.records.contains { $0["event"] as? String == "interruption" && $0["type"] as? String == "ended" && $0["app"] as? String == "Web" }
        }
        // The bridge decides about playing in the same step as the ended interruption, and logs it.
        let sessionName = "session/\(session.split(separator: "/").last ?? "")"
        #expect(!daemon.records.contains { $0["event"] as? String == "action" && $0["action"] as? String == "play"
            && $0["session"] as? String == sessionName }, "not resumed unless the user acts")
        #expect(!output.contains("Play"))
    }
}

extension MPRISTests {
    @Test("a Flatpak app's player is found by its app id when its process is not the stream's", arguments: SoundServerKind.allCases)
    func flatpakPlayer(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let server = scenario.server
        let log = server.root + "/logs/flatpak-player.log"
        var environment = server.environment
        environment["MPRIS_SUFFIX"] = "tunes.instance42"
        let quoted = "MPRIS_SUFFIX=tunes.instance42 '\(BridgeDaemon.buildDirectory)/mpris-test-player' Tunes -"
        let (_, pidText) = try TestProcess.run("/bin/sh", ["-c", "\(quoted) >'\(log)' 2>&1 & echo $!"], environment: environment)
        defer { kill(Int32(pidText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, SIGKILL) }
        var output: String { textSoFar(log) }
        try waitUntil("the player to be on the bus") { output.contains("ready") }
        // The app's stream comes from another process, with the sandbox's app id.
        let streamLog = server.root + "/logs/tunes.log"
        try server.spawnDetached("pacat", ["--playback", "--raw", "--client-name=Tunes", "--property=media.role=music",
                                           "--property=pipewire.access.portal.app_id=com.example.Tunes", "/dev/zero"],
                                 log: streamLog)
        let client = try BusClient(address: server.busAddress!)
        _ = try ShippedPolicyTests.session(of: "com.example.Tunes", client, log: streamLog)
        let call = try client.createSession("call")
        try client.setCategory(call.path, "playAndRecord", mode: "voiceChat")
        try client.setActive(call.path, true)
        try waitUntil("the bridge to pause the Flatpak app's player") { output.contains("Pause") }
    }
}
