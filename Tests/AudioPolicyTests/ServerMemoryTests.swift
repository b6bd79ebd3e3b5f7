// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel
import Testing

/// The server's memory of an app's levels: the app's next stream starts with the user's own levels,
/// whatever the server remembered of the bridge's (DESIGN §2, "Nothing is left behind").
@Suite("The server's memory of an app's levels")
struct ServerMemoryTests {
    static let user = StreamLevels(volume: ChannelVolumes(channels: 2, value: 0xC000), mute: false)
    static let key = "sink-input-by-application-name:Music Player"

    /// A player whose stream ended while a call had it muted; the call has ended since.
    static func playerEndedWhileInterrupted() -> Scene {
        var scene = Scene()
        let song = scene.startStream("Music Player", role: "music")
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        scene.settle()
        #expect(scene.isMuted(song))
        scene.stopStream(song)
        scene.setActive(call, false, notify: true)
        scene.settle()
        return scene
    }

    @Test("a stream that ends muted makes the bridge rewrite the server's memory with the user's levels")
    func memoryRewritten() {
        let scene = Self.playerEndedWhileInterrupted()
        #expect(scene.remembered[Self.key] == Self.user)
    }

    /// Each row: how the server starts the app's next stream, and whether it applies its memory later
    /// (after the first report, as WirePlumber does).
    @Test("the app's next stream gets the user's levels whatever the server starts it with",
          arguments: [(true, false), (false, true), (true, true)])
    func nextStreamGetsTheUserLevels(startsMuted: Bool, memoryArrivesLater: Bool) {
        var scene = Self.playerEndedWhileInterrupted()
        scene.mark()
        let next = scene.startStream("Music Player", role: "music", muted: startsMuted)
        #expect(scene.levels(next) == Self.user)
        if memoryArrivesLater {
            scene.advance(5)
            scene.userSetsMute(next, true)  // WirePlumber's restore-stream, not a person
            #expect(scene.levels(next) == Self.user)
        }
        #expect(scene.actions.contains { if case .setStreamMute(next, false, _) = $0 { true } else { false } })
        scene.settle()
        #expect(scene.levels(next) == Self.user)
        #expect(scene.journal.isEmpty, "nothing the bridge set is left in force")
    }

    @Test("after the window, a change of the next stream's levels is the user's")
    func laterChangesAreTheUsers() {
        var scene = Self.playerEndedWhileInterrupted()
        let next = scene.startStream("Music Player", role: "music", muted: true)
        scene.advance(1500)
        scene.userSetsMute(next, true)
        scene.settle()
        #expect(scene.isMuted(next))
    }

    @Test("a stream that started with the user's levels owes nothing more: a change a moment later is the user's")
    func owedOnlyOnce() {
        var scene = Self.playerEndedWhileInterrupted()
        let next = scene.startStream("Music Player", role: "music")
        scene.stopStream(next)
        let third = scene.startStream("Music Player", role: "music", muted: true)
        scene.settle()
        #expect(scene.isMuted(third), "the bridge never touched the second stream: the memory is the user's")
    }

    @Test("a ducked stream that ends: the next one starts at the user's volume, not the duck")
    func duckedStreamEnds() {
        var scene = Scene()
        let song = scene.startStream("Music Player", role: "music")
        _ = scene.startStream("Navigation")
        scene.settle()
        let ducked = scene.volume(song)
        #expect(ducked < 0xC000)
        scene.stopStream(song)
        let next = scene.startStream("Music Player", role: "music", volume: ducked)
        scene.settle()
        #expect(scene.engine.streams[next].map { $0.duckCauses.isEmpty } == false, "navigation still ducks it")
        #expect(scene.engine.streams[next]?.user.volume.values == [0xC000, 0xC000])
    }
}
