// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel
import Testing

@testable import AudioPolicy

extension Result {
    var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}

/// An explicit session that registered its MPRIS player (`SetNowPlayingPlayer`) is paused and played
/// by the bridge as policy sessions' players are.
@Suite("An explicit session's registered player")
struct NowPlayingPlayerTests {
    static let name = "org.mpris.MediaPlayer2.podcast.instance42"

    /// Sets the session's player as its owner (or `caller`).
    @discardableResult
    func register(_ scene: inout Scene, _ id: SessionID, _ name: String, caller: String? = nil)
        -> Result<ReplyValue, AudioSessionError>
    {
        let caller = caller ?? scene.owner(of: id)
        return scene.call { .setNowPlayingPlayer($0, id, caller: caller, busName: name) }
    }

    /// An active playback session of "podcast" with a playing stream, and its player registered if given.
    func podcast(_ scene: inout Scene, player: String? = name, corked: Bool = false) -> (SessionID, StreamID) {
        let app = scene.activeSession("podcast", .playback)
        if let player { #expect(register(&scene, app, player).isSuccess) }
        let stream = scene.startStream("podcast", in: app, corked: corked)
        scene.settle()
        return (app, stream)
    }

    @Test("paused when a call interrupts it, played when the call ends with shouldResume")
    func pausedAndPlayed() {
        var scene = Scene()
        let (app, _) = podcast(&scene)
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        scene.settle()
        #expect(scene.playerCommands(app) == ["pause"])
        scene.setActive(call, false, notify: true)
        #expect(scene.playerCommands(app) == ["pause", "play"])
    }

    @Test("without shouldResume it stays paused")
    func notResumedWithoutShouldResume() {
        var scene = Scene()
        let (app, _) = podcast(&scene)
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        scene.setActive(call, false, notify: false)
        #expect(scene.playerCommands(app) == ["pause"])
    }

    @Test("no player, a cleared player, or a player that was not playing: no command")
    func noCommand() {
        var unregistered = Scene()
        let (plain, _) = podcast(&unregistered, player: nil)
        let call = unregistered.activeSession("call", .playAndRecord, mode: .voiceChat)
        unregistered.setActive(call, false, notify: true)
        #expect(unregistered.playerCommands(plain).isEmpty)

        var cleared = Scene()
        let (app, _) = podcast(&cleared)
        #expect(register(&cleared, app, "").isSuccess)
        #expect(cleared.engine.sessions[app]?.nowPlayingPlayer == nil)
        let call2 = cleared.activeSession("call", .playAndRecord, mode: .voiceChat)
        cleared.setActive(call2, false, notify: true)
        #expect(cleared.playerCommands(app).isEmpty)

        var silent = Scene()
        let (quiet, _) = podcast(&silent, corked: true)
        let call3 = silent.activeSession("call", .playAndRecord, mode: .voiceChat)
        silent.setActive(call3, false, notify: true)
        #expect(silent.playerCommands(quiet).isEmpty)
    }

    @Test("a named policy that pauses on unplug pauses the registered player when its headphones go")
    func pausedOnUnplug() {
        var scene = Scene()
        let headphones = scene.plugHeadphones()
        let result = scene.call {
            .createSession($0, SessionRequest(owner: ":1.podcast", ownerPID: nil, appID: "podcast", token: "t", policyName: "media-player"))
        }
        guard case .success(.sessionCreated(let app, _)) = result else { Issue.record("no session: \(result)"); return }
        #expect(register(&scene, app, Self.name).isSuccess)
        scene.setCategory(app, .playback)
        scene.setActive(app, true)
        _ = scene.startStream("podcast", in: app)
        scene.settle()
        scene.unplug(headphones)
        #expect(scene.playerCommands(app) == ["pause"])
    }

    struct BadName: CustomStringConvertible, Sendable {
        var name: String
        var description: String { name.isEmpty ? "(empty)" : String(name.prefix(40)) }
    }

    @Test("a name outside org.mpris.MediaPlayer2, or not a bus name, is BadParam", arguments: [
        "org.example.Player", "org.mpris.MediaPlayer2.", "org.mpris.MediaPlayer2.9lives", "org.mpris.MediaPlayer2.a..b",
        "org.mpris.MediaPlayer2.pod cast", "org.mpris.MediaPlayer2." + String(repeating: "x", count: 240), ":1.42",
    ])
    func badNames(_ name: String) {
        var scene = Scene()
        let (app, _) = podcast(&scene, player: nil)
        #expect(scene.error(register(&scene, app, name)) == .badParam)
        #expect(scene.engine.sessions[app]?.nowPlayingPlayer == nil)
    }

    @Test("another connection cannot set a session's player")
    func otherCaller() {
        var scene = Scene()
        let (app, _) = podcast(&scene, player: nil)
        #expect(scene.error(register(&scene, app, Self.name, caller: ":1.intruder")) == .accessDenied)
        #expect(scene.engine.sessions[app]?.nowPlayingPlayer == nil)
    }
}
