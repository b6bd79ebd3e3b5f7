// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// Each shipped policy governs a plain `pacat` matched by its binary name (a copy of pacat under that
/// name), with the session the file documents; and the behaviours that set the policies apart.
@Suite("The shipped policies on plain pacat clients", .serialized, .threadOfItsOwn)
struct ShippedPolicyTests {
    /// policy → (binary it matches, category, mode, active while playing)
    static let rows: [(String, String, String, String, Bool)] = [
        ("media-player", "mpv", "playback", "default", true),
        ("browser-like", "firefox", "playback", "default", true),
        ("game", "supertuxkart", "ambient", "default", true),
        ("voip", "linphone", "playAndRecord", "voiceChat", true),
        ("video-call", "webex", "playAndRecord", "videoChat", true),
        ("chat", "Discord", "ambient", "default", true),
        ("video-recorder", "obs", "playAndRecord", "videoRecording", true),
        ("measurement", "lingot", "playAndRecord", "measurement", true),
        ("navigation", "gnome-maps", "playback", "voicePrompt", true),
        ("music-making", "ardour", "playAndRecord", "default", true),
        ("audiobook", "cozy", "playback", "spokenAudio", true),
        ("alarm", "gnome-clocks", "playback", "default", true),
        ("screen-reader", "orca", "playback", "spokenAudio", true),
        ("notification", "canberra-gtk-play", "playback", "default", true),
    ]

    /// A copy of pacat named `binary`, so that the stream's application.process.binary is that name.
    static func pacat(named binary: String, in server: SoundServer) throws -> String {
        let path = server.root + "/bin/" + binary
        if !FileManager.default.fileExists(atPath: path) { try ProgramFiles.copy("pacat", to: path) }
        return path
    }

    /// The policy session of an app (by AppId), once it exists; `log` is the app's output, shown if it never comes.
    static func session(of app: String, _ client: BusClient, log: String, timeout: Duration = .seconds(20)) throws -> String {
        var found = ""
        try waitUntil("a policy session for \(app) (its output: \(textSoFar(log)); "
                      + "the bridge: \((try? client.call(BusClient.manager, BusClient.bridge, "Snapshot"))?.first?.stringValue ?? "?"))",
                      timeout: timeout) {
            let sessions = try client.call(BusClient.manager, BusClient.bridge, "ListSessions")[0].arrayItems ?? []
            for session in sessions where try client.property(session.stringValue ?? "", "AppId") == .string(app) {
                found = session.stringValue ?? ""
                return true
            }
            return false
        }
        return found
    }

    @Test("every shipped policy governs its app with the session its file documents", arguments: SoundServerKind.underTest)
    func everyPolicy(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let (server, daemon) = (scenario.server, scenario.daemon)
        let client = try BusClient(address: server.busAddress!)
        for (policy, binary, category, mode, active) in Self.rows {
            let log = server.root + "/logs/\(binary).log"
            let pid = try server.spawnDetached(try Self.pacat(named: binary, in: server), ["--playback", "--raw", "/dev/zero"], log: log)
            let path = try Self.session(of: binary, client, log: log)
            #expect(try client.property(path, "Category") == .string(category), "\(policy)")
            #expect(try client.property(path, "Mode") == .string(mode), "\(policy)")
            try waitUntil("\(policy)'s activation") { try client.property(path, "IsActive") == .bool(active) }
            // The log is written just after the step that the bus already shows.
            var record: [String: Any]?
            try waitUntil("\(policy)'s session.created record") {
                record = daemon.records.first { $0["event"] as? String == "session.created" && $0["app"] as? String == binary }
                return record != nil
            }
            #expect(record?["policy"] as? String == policy)
            kill(pid, SIGKILL)
            try waitUntil("\(policy)'s session to end", timeout: .seconds(15)) {
                let sessions = try client.call(BusClient.manager, BusClient.bridge, "ListSessions")[0].arrayItems ?? []
                return !sessions.contains(.objectPath(path))
            }
        }
    }

    @Test("a game mixes with music, navigation ducks it, an alarm interrupts it, and a call interrupts it until it ends", arguments: SoundServerKind.underTest)
    func behavioursAgainstMusic(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let (server, daemon) = (scenario.server, scenario.daemon)
        let client = try BusClient(address: server.busAddress!)
        func log(_ binary: String) -> String { server.root + "/logs/\(binary).log" }
        @discardableResult func play(_ binary: String, _ file: String = "/dev/zero") throws -> Int32 {
            try server.spawnDetached(try Self.pacat(named: binary, in: server), ["--playback", "--raw", file], log: log(binary))
        }
        try play("mpv")
        let music = try server.reportedStream(of: "mpv", timeout: .seconds(30))
        let musicSession = try Self.session(of: "mpv", client, log: log("mpv"))
        func musicLevels() throws -> (mute: Bool, volume: UInt32) {
            let stream = try server.reportedStream(index: music.index)
            return (stream?.mute ?? false, stream?.volume["front-left"] ?? 0)
        }

        let game = try play("supertuxkart")
        _ = try Self.session(of: "supertuxkart", client, log: log("supertuxkart"))
        #expect(try musicLevels().mute == false && musicLevels().volume == 0x10000, "a game mixes")
        kill(game, SIGKILL)

        // A navigation prompt ducks while it sounds (sound, not presence): it plays a tone.
        let navigation = try play("gnome-maps", try server.writeSound([(true, 30)], name: "prompt"))
        try waitUntil("navigation to duck the music") { try musicLevels().volume == 0x10000 / 5 }
        kill(navigation, SIGKILL)
        try waitUntil("the music's volume back") { try musicLevels().volume == 0x10000 }

        let alarm = try play("gnome-clocks")
        try waitUntil("the alarm to interrupt the music (its output: \(textSoFar(log("gnome-clocks"))))") { try musicLevels().mute }
        kill(alarm, SIGKILL)
        try waitUntil("the music back after the alarm") { try !musicLevels().mute }
        let call = try play("linphone")
        // What the bridge did about the two apps, said if the wait times out.
        func decisions() -> String {
            daemon.records.filter { ["mpv", "linphone"].contains($0["app"] as? String ?? "") || $0["event"] as? String == "action" }
                .suffix(12).map { "\($0)" }.joined(separator: "\n")
        }
        try waitUntil("the call to interrupt the music (music \(String(describing: try? musicLevels())); the bridge:\n\(decisions()))") {
            try musicLevels().mute
        }
        kill(call, SIGKILL)
        try waitUntil("the music back after the call") { try !musicLevels().mute }
        var types: [String] {
            daemon.records.filter { $0["event"] as? String == "interruption"
                && $0["session"] as? String == "session/\(musicSession.split(separator: "/").last ?? "")" }
                .compactMap { $0["type"] as? String }
        }
        try waitUntil("the last interruption record") { types.count >= 4 }
        #expect(types == ["began", "ended", "began", "ended"], "the alarm, then the call")

        // A recorder that prefers no interruptions from system alerts is not interrupted by an alarm.
        let recorder = try client.createSession("recorder")
        try client.setCategory(recorder.path, "record")
        try client.call(recorder.path, BusClient.sessionInterface, "SetPrefersNoInterruptionsFromSystemAlerts", [.bool(true)])
        try client.setActive(recorder.path, true)
        let secondAlarm = try play("gnome-clocks")
        try waitUntil("the second alarm to be active") {
            daemon.records.filter { $0["event"] as? String == "session.active" && $0["app"] as? String == "gnome-clocks"
                && $0["active"] as? Bool == true }.count >= 2
        }
        #expect(client.interruptions(recorder.path).isEmpty, "the recorder prefers no interruptions from alerts")
        #expect(try client.property(recorder.path, "IsActive") == .bool(true))
        kill(secondAlarm, SIGKILL)
    }
}
