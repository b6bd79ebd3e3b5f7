// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel
import Testing

/// The scenarios of the Audio Session Programming Guide, as DESIGN.md §4 lists them.
@Suite("Scenarios from the guide")
struct GuideScenarioTests {
    @Test("an audiobook keeps playing with the screen locked; an ambient game is silenced")
    func audiobookLocked() {
        var scene = Scene()
        let audiobook = scene.activeSession("audiobook", .playback, mode: .spokenAudio)
        let book = scene.startStream("audiobook", in: audiobook)
        let game = scene.createSession("game")
        scene.setCategory(game, .ambient)
        let effects = scene.startStream("game", in: game)
        scene.send(.screenLocked(true))
        #expect(!scene.isMuted(book))
        #expect(scene.isMuted(effects))
        scene.send(.screenLocked(false))
        #expect(!scene.isMuted(effects))
    }

    @Test("an FPS game with the user's music: the game mixes (ambient) and is told to silence its soundtrack")
    func fpsGameWithMusic() {
        var scene = Scene()
        let music = scene.activeSession("music", .playback)
        let song = scene.startStream("music", in: music)
        let game = scene.activeSession("game", .ambient)
        let effects = scene.startStream("game", in: game)
        #expect(scene.interruptionTypes(music).isEmpty && !scene.isMuted(song))
        #expect(!scene.isMuted(effects))
        #expect(scene.engine.sessions[game]?.secondaryAudioShouldBeSilenced == true)
        #expect(scene.engine.isOtherAudioPlaying(for: game))
        scene.cork(song)
        scene.setActive(music, false)
        #expect(scene.hints(game) == [.begin, .end])
    }

    @Test("streaming radio and a call: the radio is interrupted and resumes after the call")
    func radioAndCall() {
        var scene = Scene()
        let radio = scene.activeSession("radio", .playback)
        let stream = scene.startStream("radio", in: radio)
        let call = scene.activeSession("phone", .playAndRecord, mode: .voiceChat)
        _ = scene.startStream("phone", in: call)
        _ = scene.startStream("phone", in: call, direction: .input)
        scene.settle()
        #expect(scene.interruptionTypes(radio) == [.began] && scene.isMuted(stream))
        // The radio app pauses, as the guide says it should.
        scene.cork(stream)
        // The call ends; its streams stop, then it deactivates, telling others they may resume.
        for id in scene.serverStreams.keys.sorted() where scene.engine.session(of: id) == call { scene.stopStream(id) }
        #expect(scene.error(scene.setActive(call, false, notify: true)) == nil)
        #expect(scene.interruptions(radio).last?.shouldResume == true)
        // The radio reactivates and plays on.
        #expect(scene.error(scene.setActive(radio, true)) == nil)
        scene.cork(stream, false)
        #expect(!scene.isMuted(stream) && scene.journal.isEmpty)
    }

    @Test("a phone-role stream of an app that never opted in is a call: it interrupts everything")
    func phoneRoleStreamIsACall() {
        var scene = Scene()
        let music = scene.activeSession("music", .playback)
        let song = scene.startStream("music", in: music)
        let phone = scene.startStream("softphone", role: "phone")
        let callSession = scene.policySession(of: phone)
        scene.settle()
        #expect(scene.engine.sessions[callSession]?.configuration.isCall == true)
        #expect(scene.interruptionTypes(music) == [.began] && scene.isMuted(song))
        scene.stopStream(phone)
        scene.settle()
        #expect(scene.interruptions(music).last == .init(type: .ended, reason: .default, shouldResume: true, interrupter: "softphone"))
        #expect(!scene.isMuted(song))
        #expect(scene.engine.sessions[callSession] == nil, "the policy session ends after its grace period")
    }

    @Test("a policy session stays active through a short gap between tracks (release grace)")
    func trackChangeIsNotDeactivation() {
        var scene = Scene()
        let first = scene.startStream("Music Player", role: "music")
        let player = scene.policySession(of: first)
        scene.stopStream(first)
        scene.advance(500)
        let second = scene.startStream("Music Player", role: "music")
        #expect(scene.policySession(of: second) == player)
        scene.advance(5000)
        #expect(scene.engine.sessions[player]?.isActive == true)
        scene.stopStream(second)
        scene.advance(2100)
        #expect(scene.engine.sessions[player] == nil)
    }

    @Test("an explicit session adopts its app's streams by token, and by process")
    func attribution() {
        var scene = Scene()
        let early = scene.startStream("app", pid: 4242)  // before the session exists: unmanaged
        #expect(scene.engine.session(of: early) == nil)
        let byPID = scene.createSession("app", pid: 4242)
        #expect(scene.engine.session(of: early) == byPID, "adopted when the session was created")
        let byToken = scene.createSession("other")
        let tokenStream = scene.startStream("anything", in: byToken)
        #expect(scene.engine.session(of: tokenStream) == byToken)
        // A child process of the owner that names the same app: the chain holds the owner's pid as an ancestor.
        let child = StreamInfo(id: StreamID(.output, 900), app: AppIdentity(name: "app"), processChain: [5000, 4242],
                               device: scene.speaker)
        scene.serverStreams[child.id] = child
        scene.send(.streamAppeared(child))
        #expect(scene.engine.session(of: child.id) == byPID)
    }

    /// Each row: how a descendant of the owner (app id "Tunes", executable "tunes-player") names itself,
    /// and whether it joins the owner's session.
    @Test("a descendant of an explicit session's owner joins it only when it names the same app",
          arguments: [
              (AppIdentity(name: "Tunes"), true),
              (AppIdentity(name: "tunes"), true),
              (AppIdentity(name: "Tunes helper", binary: "tunes-player"), true),
              (AppIdentity(name: "x", desktopID: "Tunes"), true),
              (AppIdentity(name: "softphone", binary: "pacat"), false),
              (AppIdentity(name: "bash", binary: "bash"), false),
          ])
    func attributionByApp(app: AppIdentity, joins: Bool) {
        var scene = Scene()
        let request = SessionRequest(owner: ":1.tunes", ownerPID: 4242, appID: "Tunes", token: "tunes-token",
                                     ownerBinary: "tunes-player")
        _ = scene.call { .createSession($0, request) }
        let session = scene.engine.sessions.values.first { $0.appID == "Tunes" }!.id
        scene.setCategory(session, .playback)
        _ = scene.setActive(session, true)
        let own = StreamInfo(id: StreamID(.output, 800), app: AppIdentity(name: "whatever"), processChain: [4242, 1],
                             device: scene.speaker)
        let child = StreamInfo(id: StreamID(.output, 900), app: app, role: "phone", processChain: [5000, 4242, 1],
                               device: scene.speaker)
        for info in [own, child] {
            scene.serverStreams[info.id] = info
            scene.send(.streamAppeared(info))
        }
        #expect(scene.engine.session(of: own.id) == session, "the owner's own process always joins")
        #expect((scene.engine.session(of: child.id) == session) == joins)
        if !joins {
            #expect(scene.interruptionTypes(session) == [.began], "the child's call is an app of its own and interrupts the owner")
        }
    }

    /// Each row: the Flatpak sandbox a stream carrying the session's token comes from (the session is
    /// `com.example.Tunes`'s), and whether it joins.
    @Test("a stream from a Flatpak sandbox joins a session only of its own app, even with the session's token",
          arguments: [
              (nil as String?, true),
              ("com.example.Tunes", true),
              ("org.example.Spy", false),
          ])
    func sandboxedStreamJoinsOnlyItsApp(sandbox: String?, joins: Bool) {
        var scene = Scene()
        let request = SessionRequest(owner: ":1.tunes", ownerPID: 4242, appID: "com.example.Tunes", token: "tunes-token")
        _ = scene.call { .createSession($0, request) }
        let session = scene.engine.sessions.values.first { $0.appID == "com.example.Tunes" }!.id
        let stream = StreamInfo(id: StreamID(.output, 900), app: AppIdentity(name: "Tunes", flatpakID: sandbox),
                                role: "music", token: "tunes-token", processChain: [4242, 1], device: scene.speaker)
        scene.serverStreams[stream.id] = stream
        scene.send(.streamAppeared(stream))
        #expect((scene.engine.session(of: stream.id) == session) == joins)
        if !joins {
            let own = scene.engine.session(of: stream.id).flatMap { scene.engine.sessions[$0] }
            #expect(own?.appID == "org.example.Spy", "governed as the app its sandbox names")
        }
    }
}

