// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// PulseAudio's module-role-cork and the bridge do not both act on the same stream.
@Suite("Coexistence with module-role-cork", .serialized, .threadOfItsOwn)
struct CoexistenceTests {
    @Test("with module-role-cork loaded, a call mutes each music stream once (no cork) and restores it; the module comes back")
    func roleCork() throws {
        let server = try SoundServer(.pulseaudio, extraModules: ["module-role-cork"])
        defer { server.stop() }
        #expect(try server.pactl(["list", "short", "modules"]).contains("module-role-cork"))
        let daemon = try BridgeDaemon(server: server)
        try waitUntil("the bridge to take over from module-role-cork") {
            try !server.pactl(["list", "short", "modules"]).contains("module-role-cork")
        }
        // One music app with two streams, and a call.
        try server.playDetached(app: "Music", role: "music")
        try server.playDetached(app: "Music", role: "music")
        var music: [ReportedStream] = []
        try waitUntil("both music streams") {
            music = try server.streams().compactMap(ReportedStream.init).filter { $0.app == "Music" }
            return music.count == 2
        }
        let phone = try server.playDetached(app: "Phone", role: "phone")
        for stream in music {
            try waitUntil("\(stream.app) muted by the bridge") { try server.reportedStream(index: stream.index)?.mute == true }
            #expect(try server.reportedStream(index: stream.index)?.corked == false, "nobody corks it as well")
        }
        kill(phone, SIGKILL)
        for stream in music {
            try waitUntil("\(stream.app) unmuted after the call") {
                let now = try server.reportedStream(index: stream.index)
                return now?.mute == false && now?.corked == false
            }
        }
        var muteRecords: [[String: Any]] {
            daemon.records.filter { $0["event"] as? String == "action" && $0["action"] as? String == "mute" }
        }
        try waitUntil("the mute records") { muteRecords.count >= 2 }
        #expect(muteRecords.count == 2, "one mute per music stream")
        #expect(daemon.terminate() == 0)
        #expect(try server.pactl(["list", "short", "modules"]).contains("module-role-cork"), "handed back on exit")
    }
}
