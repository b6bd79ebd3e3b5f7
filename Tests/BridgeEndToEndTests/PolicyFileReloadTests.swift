import AudioTestHarness
import Foundation
import Testing

/// Policy files on a running bridge, and `audiosessionctl policy check`, through the built binaries.
@Suite("Policy files on a running bridge", .serialized)
struct PolicyFileReloadTests {
    static let custom = """
        # A test policy.
        schema = 1
        [session]
        category = "%@"
        [match]
        application-names = ["Custom"]

        """

    @Test("a reload on SIGHUP takes a good edit and refuses a broken one, keeping the previous policy in force")
    func reloadKeepsLastGoodSet() throws {
        let server = try SoundServer(.pulseaudio)
        defer { server.stop() }
        let folder = server.root + "/policies"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for file in try FileManager.default.contentsOfDirectory(atPath: BridgeDaemon.policiesFolder) where file.hasSuffix(".toml") {
            try FileManager.default.copyItem(atPath: BridgeDaemon.policiesFolder + "/" + file, toPath: folder + "/" + file)
        }
        let customFile = folder + "/custom.toml"
        try Self.custom.replacingOccurrences(of: "%@", with: "playback").write(toFile: customFile, atomically: true, encoding: .utf8)
        let daemon = try BridgeDaemon(server: server, arguments: ["--policies", folder])
        defer { daemon.terminate() }
        let client = try BusClient(address: server.busAddress!)

        /// Plays as "Custom", returns the category of the policy session it got, and stops.
        func categoryOfCustom() throws -> String {
            let player = try server.playDetached(app: "Custom")
            defer { kill(player, SIGKILL) }
            var category = ""
            try waitUntil("a policy session for Custom") {
                let sessions = try client.call(BusClient.manager, BusClient.bridge, "ListSessions")[0].arrayItems ?? []
                for session in sessions {
                    let path = session.stringValue ?? ""
                    if try client.property(path, "AppId") == .string("Custom") {
                        category = try client.property(path, "Category").stringValue ?? ""
                        return true
                    }
                }
                return false
            }
            return category
        }

        #expect(try categoryOfCustom() == "playback")
        try waitUntil("the session to go with its stream", timeout: .seconds(15)) {
            !daemon.records.filter { $0["event"] as? String == "session.released" && $0["app"] as? String == "Custom" }.isEmpty
        }

        // A good edit, then SIGHUP: the new category applies.
        try Self.custom.replacingOccurrences(of: "%@", with: "ambient").write(toFile: customFile, atomically: true, encoding: .utf8)
        kill(daemon.process.pid, SIGHUP)
        try waitUntil("the reload") { daemon.records.filter { $0["event"] as? String == "policy.loaded" }.count >= 30 }
        #expect(try categoryOfCustom() == "ambient")

        // A broken edit, then SIGHUP: reported with file, line and column; the previous set stays.
        try "schema = 1\n[session]\ncategory = \"loud\"\n".write(toFile: customFile, atomically: true, encoding: .utf8)
        kill(daemon.process.pid, SIGHUP)
        try waitUntil("the error record") { daemon.records.contains { $0["event"] as? String == "policy.error" } }
        let error = try #require(daemon.records.first { $0["event"] as? String == "policy.error" })
        #expect(error["file"] as? String == customFile)
        #expect(error["line"] as? Int == 3 && error["column"] as? Int == 12)
        #expect((error["message"] as? String)?.contains("unknown category 'loud'") == true)
        try waitUntil("the session to go with its stream", timeout: .seconds(15)) {
            daemon.records.filter { $0["event"] as? String == "session.released" && $0["app"] as? String == "Custom" }.count >= 2
        }
        #expect(try categoryOfCustom() == "ambient", "the last good set is still in force")

        // An edit is picked up without SIGHUP too (inotify).
        try waitUntil("the session to go with its stream", timeout: .seconds(15)) {
            daemon.records.filter { $0["event"] as? String == "session.released" && $0["app"] as? String == "Custom" }.count >= 3
        }
        let before = daemon.records.filter { $0["event"] as? String == "policy.loaded" }.count
        try Self.custom.replacingOccurrences(of: "%@", with: "soloAmbient").write(toFile: customFile, atomically: true, encoding: .utf8)
        try waitUntil("the reload on change") { daemon.records.filter { $0["event"] as? String == "policy.loaded" }.count > before }
        #expect(try categoryOfCustom() == "soloAmbient")
    }

    @Test("audiosessionctl policy check: 0 for good files, 1 with file:line:column for a broken one, 2 for bad usage")
    func policyCheck() throws {
        let ctl = BridgeDaemon.buildDirectory + "/audiosessionctl"
        let shipped = try FileManager.default.contentsOfDirectory(atPath: BridgeDaemon.policiesFolder)
            .filter { $0.hasSuffix(".toml") }.map { BridgeDaemon.policiesFolder + "/" + $0 }
        let good = try TestProcess.run(ctl, ["policy", "check"] + shipped, environment: ProcessInfo.processInfo.environment)
        #expect(good.status == 0)
        #expect(good.output.contains("14 file(s), 14 policies: ok"))
        let broken = NSTemporaryDirectory() + "broken-\(getpid()).toml"
        try "schema = 1\n[ducking]\nlevel = 3\n".write(toFile: broken, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: broken) }
        let bad = try TestProcess.run(ctl, ["policy", "check", broken], environment: ProcessInfo.processInfo.environment)
        #expect(bad.status == 1)
        #expect(bad.output.contains("\(broken):3:9: ducking.level must be within 0.0…1.0"))
        let usage = try TestProcess.run(ctl, ["policy", "verify"], environment: ProcessInfo.processInfo.environment)
        #expect(usage.status == 2)
    }
}

@Suite("audiosessionctl exec", .serialized)
struct ExecTests {
    @Test("exec runs an unmodified pacat inside a session; its stream carries the token and joins it",
          arguments: SoundServerKind.allCases)
    func execRunsPacatInASession(kind: SoundServerKind) throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let daemon = try BridgeDaemon(server: server)
        defer { daemon.terminate() }
        let exec = try server.spawn(BridgeDaemon.buildDirectory + "/audiosessionctl", [
            "exec", "--category", "playback", "--mode", "moviePlayback", "--",
            "pacat", "--playback", "--raw", "--client-name=Movie", "/dev/zero",
        ])
        let stream = try server.reportedStream(of: "Movie")
        let client = try BusClient(address: server.busAddress!)
        var sessionPath = ""
        try waitUntil("the stream to join a session") {
            let json = try client.call(BusClient.manager, BusClient.bridge, "Snapshot")[0].stringValue ?? "{}"
            let snapshot = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]
            let streams = snapshot["streams"] as? [[String: Any]] ?? []
            sessionPath = streams.first { $0["stream"] as? String == "sink-input/\(stream.index)" }?["session"] as? String ?? ""
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

@Suite("MPRIS players of apps that never opt in", .serialized)
struct MPRISTests {
    @Test("a real MPRIS player on the private bus is paused by a call and played after it",
          arguments: SoundServerKind.allCases)
    func playerPausedAndPlayed(kind: SoundServerKind) throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let daemon = try BridgeDaemon(server: server)
        defer { daemon.terminate() }
        // Not a child of this test, whose connection owns the call session below.
        let log = server.root + "/logs/player.log"
        try server.spawnDetached(BridgeDaemon.buildDirectory + "/mpris-test-player", ["Tunes"], log: log)
        var output: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
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
    @Test("a browser-like app's player is paused by a call and not played again after it: the user acts")
    func browserNotResumed() throws {
        let server = try SoundServer(.pulseaudio)
        defer { server.stop() }
        let daemon = try BridgeDaemon(server: server)
        defer { daemon.terminate() }
        let log = server.root + "/logs/browser.log"
        let firefox = try ShippedPolicyTests.pacat(named: "firefox", in: server)
        try server.spawnDetached(BridgeDaemon.buildDirectory + "/mpris-test-player", ["Web", firefox], log: log)
        var output: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        try waitUntil("the browser to play") { output.contains("ready") }
        let client = try BusClient(address: server.busAddress!)
        let session = try ShippedPolicyTests.session(of: "Web", client)
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
