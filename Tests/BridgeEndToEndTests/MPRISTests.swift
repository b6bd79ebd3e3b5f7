// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

@Suite("MPRIS players of apps that never opt in", .serialized, .threadOfItsOwn)
struct MPRISTests {
    @Test("a real MPRIS player on the private bus is paused by a call and played after it",
          arguments: SoundServerKind.underTest)
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
    @Test("a browser-like app's player is paused by a call and not played again after it: the user acts", arguments: SoundServerKind.underTest)
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
    /// (the app id its stream carries, the suffix of its MPRIS name)
    static let sandboxedPlayers: [(String, String)] = [
        ("com.example.Tunes", "tunes.instance42"), ("com.spotify.Client", "spotify"),
        ("org.example.Player", "org.example.Player.instance7"),
    ]
    static var flatpakCases: [(SoundServerKind, String, String)] {
        SoundServerKind.underTest.flatMap { kind in sandboxedPlayers.map { (kind, $0.0, $0.1) } }
    }

    /// Starts an MPRIS player that is not the stream's process (as in a sandbox, or a player with a
    /// helper process), with `environment` added; returns its output.
    static func detachedPlayer(in server: SoundServer, _ environment: [String: String]) throws -> () -> String {
        let log = server.root + "/logs/detached-player-\(UUID().uuidString.prefix(6)).log"
        try server.spawnDetached("/usr/bin/env", environment.map { "\($0.key)=\($0.value)" }
                                     + [BridgeDaemon.buildDirectory + "/mpris-test-player", "Tunes", "-"], log: log)
        let output = { textSoFar(log) }
        try waitUntil("the player to be on the bus") { output().contains("ready") }
        return output
    }

    @Test("a Flatpak app's player is found by its app id when its process is not the stream's", arguments: flatpakCases)
    func flatpakPlayer(kind: SoundServerKind, appID: String, suffix: String) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let server = scenario.server
        let output = try Self.detachedPlayer(in: server, ["MPRIS_SUFFIX": suffix])
        // The app's stream comes from another process, with the sandbox's app id.
        let streamLog = server.root + "/logs/tunes.log"
        try server.spawnDetached("pacat", ["--playback", "--raw", "--client-name=Tunes", "--property=media.role=music",
                                           "--property=pipewire.access.portal.app_id=\(appID)", "/dev/zero"],
                                 log: streamLog)
        let client = try BusClient(address: server.busAddress!)
        _ = try ShippedPolicyTests.session(of: appID, client, log: streamLog)
        let call = try client.createSession("call")
        try client.setCategory(call.path, "playAndRecord", mode: "voiceChat")
        try client.setActive(call.path, true)
        try waitUntil("the bridge to pause the Flatpak app's player") { output().contains("Pause") }
        try client.setActive(call.path, false, options: ["notifyOthersOnDeactivation"])
        try waitUntil("the bridge to play it again") { output().contains("Play") }
    }

    /// (the player's environment, what it is)
    static let reluctantPlayers: [([String: String], String)] = [
        (["MPRIS_STATUS": "Paused"], "paused by the user"), (["MPRIS_CAN_PAUSE": "no"], "unable to pause"),
    ]
    static var reluctantCases: [(SoundServerKind, [String: String], String)] {
        SoundServerKind.underTest.flatMap { kind in reluctantPlayers.map { (kind, $0.0, $0.1) } }
    }

    @Test("a player that is not playing, or cannot pause, is neither paused nor played by a call", arguments: reluctantCases)
    func playerStateRead(kind: SoundServerKind, environment: [String: String], what: String) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let (server, daemon) = (scenario.server, scenario.daemon)
        let (lines, client, session) = try Self.tunes(in: server, player: environment)
        let sessionName = "session/\(session.split(separator: "/").last ?? "")"
        func decided(_ action: String) -> Bool {
            daemon.records.contains { $0["event"] as? String == "action" && $0["action"] as? String == action
                && $0["session"] as? String == sessionName }
        }
        let call = try Self.callSession(client)
        try client.setActive(call.path, true)
        try waitUntil("the bridge to decide the pause") { decided("pause") }
        try client.setActive(call.path, false, options: ["notifyOthersOnDeactivation"])
        try waitUntil("the bridge to decide the play") { decided("play") }
        // A second call: the bridge reads the player's state a third time, after any command it sent
        // for the first (its messages to the player arrive in order).
        try client.setActive(call.path, true)
        try waitUntil("the player's state read three times (\(lines()))") { lines().filter { $0 == "status read" }.count >= 3 }
        #expect(!lines().contains("Pause") && !lines().contains("Play"), "\(what): \(lines())")
    }

    /// Tunes playing from a process of its own with its sandbox's app id, and its player on the bus
    /// (`environment` added); returns the player's output lines, a client and Tunes's policy session.
    static func tunes(in server: SoundServer, player environment: [String: String]) throws
        -> (lines: () -> [String], client: BusClient, session: String) {
        let output = try detachedPlayer(in: server, environment.merging(["MPRIS_SUFFIX": "tunes"]) { $1 })
        let streamLog = server.root + "/logs/tunes.log"
        try server.spawnDetached("pacat", ["--playback", "--raw", "--client-name=Tunes", "--property=media.role=music",
                                           "--property=pipewire.access.portal.app_id=com.example.Tunes", "/dev/zero"],
                                 log: streamLog)
        let client = try BusClient(address: server.busAddress!)
        let session = try ShippedPolicyTests.session(of: "com.example.Tunes", client, log: streamLog)
        return ({ output().split(separator: "\n").map(String.init) }, client, session)
    }

    /// A call session of the test's connection, not active yet.
    static func callSession(_ client: BusClient) throws -> (path: String, token: String) {
        let call = try client.createSession("call")
        try client.setCategory(call.path, "playAndRecord", mode: "voiceChat")
        return call
    }
}

/// Players that answer Play and Pause at once and announce the change later (mpv's plugin may): what
/// they announce counts in the order they announce it (DECISIONS 111).
extension MPRISTests {
    /// How the test player announces late (`MPRIS_ANNOUNCE`), and what it has announced once it has
    /// answered the bridge's first pause, its play and its second pause.
    struct LateAnnouncer: Sendable, CustomTestStringConvertible {
        var mode: String
        var announcedAfter: [[String]]
        var testDescription: String { mode }
    }

    static let lateAnnouncers = [
        // Each change after the next answer: a Playing before the pause is announced is the playing it stopped.
        LateAnnouncer(mode: "late", announcedAfter: [["announced Playing"], ["announced Playing", "announced Paused"],
                                                     ["announced Playing", "announced Paused", "announced Playing"]]),
        // Four at a time: the first pause is announced before the bridge's play, whose Playing is its own.
        LateAnnouncer(mode: "in-fours", announcedAfter: [[], [], ["announced Playing, Paused, Playing, Paused"]]),
    ]
    static var lateAnnouncerCases: [(SoundServerKind, LateAnnouncer)] {
        SoundServerKind.underTest.flatMap { kind in lateAnnouncers.map { (kind, $0) } }
    }

    @Test("a player that announces its changes late is played again after each of two calls: a late Playing is the playing the bridge stopped, or its own play's",
          arguments: lateAnnouncerCases)
    func lateAnnouncements(kind: SoundServerKind, announcer: LateAnnouncer) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let (lines, client, _) = try Self.tunes(in: scenario.server, player: ["MPRIS_ANNOUNCE": announcer.mode])
        func count(_ line: String) -> Int { lines().filter { $0 == line }.count }
        let call = try Self.callSession(client)
        // Each command, and what the player has announced once the bridge has taken it in.
        let steps = [(true, "Pause", 1), (false, "Play", 1), (true, "Pause", 2)]
        for ((activate, command, times), announced) in zip(steps, announcer.announcedAfter) {
            try client.setActive(call.path, activate, options: activate ? [] : ["notifyOthersOnDeactivation"])
            try waitUntil("\(command) #\(times), then \(announced) (\(lines()))") {
                count(command) == times && lines().filter { $0.hasPrefix("announced") } == announced
            }
        }
        try client.setActive(call.path, false, options: ["notifyOthersOnDeactivation"])
        try waitUntil("the bridge to play it again after the second call (\(lines()))") { count("Play") == 2 }
        var ended: [[String: Any]] = []
        try waitUntil("both ends in the event log (\(ended))") {
            ended = scenario.daemon.records.filter { $0["event"] as? String == "interruption" && $0["type"] as? String == "ended" }
            return ended.count == 2
        }
        #expect(ended.allSatisfy { $0["shouldResume"] as? Bool == true && $0["takenBack"] == nil }, "\(ended)")
    }

    @Test("a player the user played after a pause the bridge never undid is played again after the next call, however late the first pause is announced",
          arguments: SoundServerKind.underTest)
    func userPlayAfterAPauseNeverUndone(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let (lines, client, tunes) = try Self.tunes(in: scenario.server, player: ["MPRIS_ANNOUNCE": "in-fours"])
        func count(_ line: String) -> Int { lines().filter { $0 == line }.count }
        // The ends of Tunes's interruptions, as a client on the bus receives them.
        func ends() -> [(type: String, reason: String, shouldResume: Bool)] { client.interruptions(tunes).filter { $0.type == "ended" } }
        let call = try Self.callSession(client)
        // A call that ends without notifyOthersOnDeactivation: the bridge's pause is never undone, and
        // the player announces nothing yet (it holds its start, the pause).
        try client.setActive(call.path, true)
        try waitUntil("the bridge's pause (\(lines()))") { count("Pause") == 1 }
        try client.setActive(call.path, false)
        try waitUntil("the first call's end (\(ends()))") { ends().count == 1 }
        // The user plays it: held too. The next call's pause makes four, announced together after its
        // answer: Playing, the first Paused, the user's Playing, the second Paused.
        try MPRISPlayer(name: "org.mpris.MediaPlayer2.tunes", server: scenario.server).send("Play")
        try waitUntil("the user's play (\(lines()))") { count("Play") == 1 }
        try client.setActive(call.path, true)
        try waitUntil("the second pause, and all four announced (\(lines()))") {
            count("Pause") == 2 && lines().contains("announced Playing, Paused, Playing, Paused")
        }
        try client.setActive(call.path, false, options: ["notifyOthersOnDeactivation"])
        try waitUntil("the second call's end (\(ends()))") { ends().count == 2 }
        #expect(ends()[0].shouldResume == false && ends()[1].shouldResume == true, "\(ends())")
        try waitUntil("the bridge to play it again (\(lines()))") { count("Play") == 2 }
    }
}
