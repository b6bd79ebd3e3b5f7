// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// Streams belong to the right app: a program an app's process launches joins the app's session only
/// when it names the same app (DESIGN §2, "Sessions").
@Suite("Streams of programs an app launched", .serialized, .threadOfItsOwn)
struct AttributionTests {
    @Test("a softphone started from a music app's process is a call of its own; a helper naming the app joins it",
          arguments: SoundServerKind.underTest)
    func childOfAnotherApp(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        // This test process holds the music session; the softphone and the helper are its children.
        let musicApp = try scenario.client()
        let music = try scenario.session(musicApp, "music", "playback")
        let song = try scenario.play("music-player", token: music.token, in: music.path, observer: musicApp)

        let softphone = try scenario.server.play(app: "softphone", role: "phone")
        let call = try scenario.server.reportedStream(of: "softphone")
        try waitUntil("music to hear began") { musicApp.interruptions(music.path).map(\.type) == ["began"] }
        try waitUntil("the music stream muted on the server") { try scenario.muted(song) == true }
        let callView = try scenario.bridgeView(of: call.index, musicApp)
        #expect(callView?["session"] as? String != music.path, "the softphone is not in the music session: \(String(describing: callView))")
        let interrupter = musicApp.signals("Interruption", from: music.path).first?.arguments[1].stringDictionary?["interrupter"]
        #expect(interrupter?.stringValue == "softphone")

        softphone.stop()
        try waitUntil("music to hear ended") { musicApp.interruptions(music.path).map(\.type) == ["began", "ended"] }
        try waitUntil("the music stream unmuted") { try scenario.muted(song) == false }

        // A child that names the same app as the session joins it, with no token.
        try scenario.server.play(app: "music")
        let helper = try scenario.server.reportedStream(of: "music")
        try waitUntil("the helper to join the music session") {
            try scenario.bridgeView(of: helper.index, musicApp)?["session"] as? String == music.path
        }
    }
}
