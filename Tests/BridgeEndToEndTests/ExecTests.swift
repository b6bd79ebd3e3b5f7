// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

@Suite("audiosessionctl exec", .serialized, .threadOfItsOwn)
struct ExecTests {
    @Test("exec runs an unmodified pacat inside a session; its stream carries the token and joins it",
          arguments: SoundServerKind.underTest)
    func execRunsPacatInASession(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let server = scenario.server
        let exec = try server.spawn(BridgeDaemon.buildDirectory + "/audiosessionctl", [
            "exec", "--category", "playback", "--mode", "moviePlayback", "--",
            "pacat", "--playback", "--raw", "--client-name=Movie", "/dev/zero",
        ])
        let stream = try server.reportedStream(of: "Movie")
        let client = try BusClient(address: server.busAddress!)
        var sessionPath = ""
        try waitUntil("the stream to join a session") {
            sessionPath = try scenario.bridgeView(of: stream.index, client)?["session"] as? String ?? ""
            return !sessionPath.isEmpty
        }
        #expect(try client.property(sessionPath, "StreamToken").stringValue == stream.properties["audiosession.token"])
        #expect(try client.property(sessionPath, "Category") == .string("playback"))
        #expect(try client.property(sessionPath, "Mode") == .string("moviePlayback"))
        #expect(try client.property(sessionPath, "IsActive") == .bool(true))
        #expect(try client.property(sessionPath, "AppId") == .string("pacat"))

        // The session ends with the program.
        let pacat = try #require(Int32(stream.properties["application.process.id"] ?? ""))
        kill(pacat, SIGTERM)
        exec.waitUntilExit()
        try waitUntil("the session to end") {
            let sessions = try client.call(BusClient.manager, BusClient.bridge, "ListSessions")[0].arrayItems ?? []
            return !sessions.contains(.objectPath(sessionPath))
        }
    }
}

extension ExecTests {
    @Test("exec --policy starts the session from a shipped policy (default: soloAmbient)", arguments: SoundServerKind.underTest)
    func execWithPolicy(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let (server, daemon) = (scenario.server, scenario.daemon)
        _ = try server.spawn(BridgeDaemon.buildDirectory + "/audiosessionctl", [
            "exec", "--policy", "default", "--", "pacat", "--playback", "--raw", "--client-name=Plain", "/dev/zero",
        ])
        let stream = try server.reportedStream(of: "Plain")
        let token = try #require(stream.properties["audiosession.token"])
        let client = try BusClient(address: server.busAddress!)
        try waitUntil("the session of the default policy") {
            let sessions = try client.call(BusClient.manager, BusClient.bridge, "ListSessions")[0].arrayItems ?? []
            return try sessions.contains {
                let path = $0.stringValue ?? ""
                return try client.property(path, "StreamToken") == .string(token)
                    && client.property(path, "Category") == .string("soloAmbient")
            }
        }
        var created: [String: Any]?
        try waitUntil("the session.created record") {
            created = daemon.records.first { $0["event"] as? String == "session.created" && $0["app"] as? String == "pacat" }
            return created != nil
        }
        #expect(created?["policy"] as? String == "default")
    }
}

extension ExecTests {
    /// Native PipeWire clients read PIPEWIRE_PROPS, not PULSE_PROP; pipewire-pulse shows their node's
    /// properties, token included, to the bridge. (PulseAudio has no native PipeWire clients.)
    @Test("exec runs an unmodified pw-play inside a session; its node carries the token and joins it",
          arguments: SoundServerKind.underTest([.pipewire, .pipewire14, .pipewire16]))
    func execRunsPwPlayInASession(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let server = scenario.server
        let silence = try server.writeSilence()
        let exec = try server.spawn(BridgeDaemon.buildDirectory + "/audiosessionctl", [
            "exec", "--category", "playback", "--", "pw-play", silence,
        ])
        defer { exec.stop() }
        let stream = try server.reportedStream(of: "pw-play")
        let token = try #require(stream.properties["audiosession.token"], "\(stream.properties)")
        let client = try BusClient(address: server.busAddress!)
        try waitUntil("the stream to join the exec's session") {
            guard let path = try scenario.bridgeView(of: stream.index, client)?["session"] as? String else { return false }
            return try client.property(path, "StreamToken") == .string(token)
                && client.property(path, "Category") == .string("playback") && client.property(path, "IsActive") == .bool(true)
        }
    }
}
