// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionModel
import Testing

/// Spoken audio is paused, not ducked; and the end of an interruption plays a player again only if the
/// user did not touch it meanwhile (DESIGN §2).
@Suite("Spoken audio and resuming what the user wants")
struct SpokenAudioTests {
    /// What a voice that ducks others does to a session: its app, or an explicit session's mode.
    enum Listener: String, CaseIterable, CustomTestStringConvertible {
        case musicPlayer, podcastPlayer, explicitSpokenAudio, explicitMusic
        var testDescription: String { rawValue }
        /// Whether the voice pauses it (else it ducks it).
        var paused: Bool { self == .podcastPlayer || self == .explicitSpokenAudio }
    }

    /// A session of `listener` playing one stream.
    static func playing(_ listener: Listener, _ scene: inout Scene) -> (session: SessionID, stream: StreamID) {
        switch listener {
        case .musicPlayer, .podcastPlayer:
            let stream = scene.startStream(listener == .musicPlayer ? "Music Player" : "Podcasts", role: "music")
            return (scene.policySession(of: stream), stream)
        case .explicitSpokenAudio, .explicitMusic:
            let id = scene.activeSession("app", .playback, mode: listener == .explicitSpokenAudio ? .spokenAudio : .default)
            return (id, scene.startStream("app", in: id))
        }
    }

    @Test("a navigation prompt ducks music and pauses spoken audio, which resumes after its last word",
          arguments: Listener.allCases)
    func promptOver(listener: Listener) {
        var scene = Scene()
        let (session, stream) = Self.playing(listener, &scene)
        scene.settle()
        let volume = scene.volume(stream)
        let prompt = scene.startStream("Navigation")
        scene.settle()
        #expect(scene.isMuted(stream) == listener.paused)
        #expect((scene.volume(stream) < volume) == !listener.paused, "ducked only when not paused")
        #expect(scene.interruptionTypes(session) == (listener.paused ? [.began] : []))
        if listener == .podcastPlayer { #expect(scene.playerCommands(session) == ["pause"]) }
        if listener == .podcastPlayer { scene.cork(stream) }  // the player paused
        scene.stopStream(prompt)
        scene.settle()
        #expect(scene.interruptionTypes(session) == (listener.paused ? [.began, .ended] : []))
        if listener.paused { #expect(scene.interruptions(session).last?.shouldResume == true) }
        if listener == .podcastPlayer { #expect(scene.playerCommands(session) == ["pause", "play"]) }
        if listener != .podcastPlayer {
            #expect(!scene.isMuted(stream))
            #expect(scene.volume(stream) == volume)
        }
    }

    @Test("a podcast that starts while a voice speaks is paused at once, and plays after it")
    func startsDuringTheVoice() {
        var scene = Scene()
        let prompt = scene.startStream("Navigation")
        let stream = scene.startStream("Podcasts", role: "music")
        let session = scene.policySession(of: stream)
        scene.settle()
        #expect(scene.isMuted(stream))
        #expect(scene.interruptionTypes(session) == [.began])
        scene.stopStream(prompt)
        scene.settle()
        #expect(scene.interruptionTypes(session) == [.began, .ended])
        #expect(!scene.isMuted(stream))
    }

    @Test("the start the bridge's own play causes, reported after a second voice paused the player again, is not the user's")
    func ownPlayReportedLate() {
        var scene = Scene()
        let stream = scene.startStream("Podcasts", role: "music")
        let session = scene.policySession(of: stream)
        scene.settle()
        let first = scene.startStream("Navigation")
        scene.settle()
        scene.cork(stream)  // paused for the first sentence
        scene.stopStream(first)
        scene.settle()  // the gap: the bridge plays the player; its stream has not started yet
        #expect(scene.playerCommands(session) == ["pause", "play"])
        let second = scene.startStream("Navigation")
        scene.cork(stream, false)  // the bridge's play, reported only now
        scene.cork(stream)  // paused for the second sentence
        scene.stopStream(second)
        scene.settle()
        #expect(scene.playerCommands(session) == ["pause", "play", "pause", "play"])
    }

    @Test("an app that opted in and plays again during its interruption is not told shouldResume at its end",
          arguments: [false, true])
    func optedInTookItBack(played: Bool) {
        var scene = Scene()
        let app = scene.activeSession("app", .playback)
        let stream = scene.startStream("app", in: app)
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        scene.cork(stream)  // the app paused, as Apple's guide says
        if played {
            scene.cork(stream, false)  // the user played it during the call
            scene.cork(stream)
        }
        scene.setActive(call, false, notify: true)
        #expect(scene.interruptions(app).last?.shouldResume == !played)
    }

    /// A music player paused (by the bridge, through MPRIS) for a call that is still on.
    static func playerPausedByACall(_ scene: inout Scene) -> (stream: StreamID, player: SessionID, call: SessionID) {
        let stream = scene.startStream("Music Player", role: "music")
        let player = scene.policySession(of: stream)
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        scene.settle()
        scene.cork(stream)  // as the player does when the bridge pauses it
        return (stream, player, call)
    }

    @Test("a player the user plays during the interruption is the user's: the call's end does not play it",
          arguments: [false, true])
    func userTouched(touched: Bool) {
        var scene = Scene()
        let (stream, player, call) = Self.playerPausedByACall(&scene)
        if touched {
            scene.cork(stream, false)  // the user plays it
            scene.cork(stream)  // and pauses it again
        }
        scene.setActive(call, false, notify: true)
        #expect(scene.playerCommands(player) == (touched ? ["pause"] : ["pause", "play"]))
        #expect(Self.takenBack(player, scene) == (touched ? "its stream played again during the interruption" : nil))
    }

    @Test("each start of the player's stream after one of the bridge's plays is the bridge's, however late: three quick calls, the player's pauses and plays reported during the third")
    func ownPlaysReportedLate() {
        var scene = Scene()
        let stream = scene.startStream("Music Player", role: "music")
        let player = scene.policySession(of: stream)
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        for _ in 0..<2 {
            scene.setActive(call, false, notify: true)  // the bridge plays it (its stream has not paused yet)...
            scene.setActive(call, true)  // ...and pauses it again
        }
        for _ in 0..<2 {
            scene.cork(stream)  // the player carries out a pause of the bridge's
            scene.cork(stream, false)  // and the play after it
        }
        scene.cork(stream)  // and the third pause
        scene.setActive(call, false, notify: true)
        #expect(scene.playerCommands(player) == ["pause", "play", "pause", "play", "pause", "play"])
        #expect(Self.takenBack(player, scene) == nil)
    }

    /// How the user took `session` back, as its last `ended` says (nil: not taken back).
    static func takenBack(_ session: SessionID, _ scene: Scene) -> String? {
        scene.actions.compactMap { action -> String?? in
            guard case .interruption(session, .ended, _, _, _, _, let takenBack) = action else { return nil }
            return .some(takenBack)
        }.last ?? nil
    }

    /// What a player paused by a call says over MPRIS during the call, and whether the call's end plays
    /// it again: only when it said nothing that the user alone can have done.
    static let playerSays: [(PlayerChange, resumed: Bool)] = [
        (PlayerChange(status: .paused), true),  // the bridge's own pause, or a pause of a paused player
        (PlayerChange(status: nil), true),  // volume or other properties
        (PlayerChange(status: .playing), false),  // played (from its window, a key, playerctl)
        (PlayerChange(status: .stopped), false),  // stopped
        (PlayerChange(status: nil, otherTrack: true), false),  // skipped to another track, still paused
        (PlayerChange(status: .paused, otherTrack: true), false),
    ]

    @Test("a player that plays, stops or skips over MPRIS during the call is the user's; a pause is not",
          arguments: playerSays)
    func playerSaysDuringTheCall(change: PlayerChange, resumed: Bool) {
        var scene = Scene()
        let (_, player, call) = Self.playerPausedByACall(&scene)
        scene.send(.playerChanged(player, change))
        scene.setActive(call, false, notify: true)
        #expect(scene.playerCommands(player) == (resumed ? ["pause", "play"] : ["pause"]))
        let said = change.otherTrack ? "its player moved to another track during the interruption"
            : "its player said \(change.status?.rawValue ?? "") during the interruption"
        #expect(Self.takenBack(player, scene) == (resumed ? nil : said))
    }

    @Test("what a player says after the interruption ended, or when the bridge did not pause it, changes nothing")
    func playerSaysOutsideTheCall() {
        var scene = Scene()
        let stream = scene.startStream("Music Player", role: "music")
        let player = scene.policySession(of: stream)
        scene.send(.playerChanged(player, PlayerChange(status: .stopped)))  // not paused by the bridge
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        scene.settle()
        scene.cork(stream)
        scene.setActive(call, false, notify: true)
        #expect(scene.playerCommands(player) == ["pause", "play"])
        scene.cork(stream, false)  // it plays as the bridge asked
        scene.send(.playerChanged(player, PlayerChange(status: .playing)))
        scene.send(.playerChanged(player, PlayerChange(status: .stopped)))  // after the end: the user's own
        let second = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        scene.settle()
        scene.cork(stream)
        scene.setActive(second, false, notify: true)
        #expect(scene.playerCommands(player) == ["pause", "play", "pause", "play"])
    }
}
