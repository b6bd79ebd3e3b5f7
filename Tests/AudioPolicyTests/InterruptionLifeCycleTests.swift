// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel
import Testing

/// The interruption life cycle of the guide, steps 1–8, and what happens when it is cut short.
@Suite("The interruption life cycle")
struct InterruptionLifeCycleTests {
    @Test("steps 1–8: active and playing, interrupted, ended with shouldResume, reactivated, playing again")
    func steps1to8() {
        var scene = Scene()
        // 1. The app's session is active and its audio plays.
        let app = scene.activeSession("app", .playback)
        let stream = scene.startStream("app", in: app)
        #expect(scene.engine.sessions[app]?.isActive == true && !scene.isMuted(stream))
        // 2. A call arrives; 3. the bridge deactivates the app's session and tells it: began.
        let phone = scene.activeSession("phone", .playAndRecord, mode: .voiceChat)
        scene.settle()
        #expect(scene.interruptions(app) == [.init(type: .began, reason: .default, shouldResume: false, interrupter: "phone")])
        #expect(scene.engine.sessions[app]?.isActive == false)
        #expect(scene.engine.sessions[app]?.isInterrupted == true)
        #expect(scene.isMuted(stream), "an app that does not pause is silenced")
        // 4. The app pauses its stream.
        scene.cork(stream)
        // 5. The call ends; 6. the app gets ended with shouldResume.
        scene.setActive(phone, false, notify: true)
        #expect(scene.interruptions(app).last == .init(type: .ended, reason: .default, shouldResume: true, interrupter: "phone"))
        #expect(scene.engine.sessions[app]?.isInterrupted == false)
        #expect(!scene.isMuted(stream))
        // 7. The app reactivates its session; 8. and resumes playback.
        #expect(scene.error(scene.setActive(app, true)) == nil)
        scene.cork(stream, false)
        #expect(scene.engine.sessions[app]?.isActive == true && !scene.isMuted(stream))
        #expect(scene.journal.isEmpty)
    }

    @Test("an app that takes its audio back during an interruption gets ended without shouldResume")
    func reactivationEndsInterruption() {
        var scene = Scene()
        let app = scene.activeSession("app", .playback)
        let other = scene.activeSession("other", .playback)
        #expect(scene.interruptionTypes(app) == [.began])
        scene.setActive(app, true)  // the user pressed play in the app
        #expect(scene.interruptions(app).last == .init(type: .ended, reason: .default, shouldResume: false, interrupter: nil))
        scene.setActive(other, false, notify: true)
        #expect(scene.interruptionTypes(app) == [.began, .ended], "nothing more when the other one ends")
        #expect(scene.interruptionTypes(other) == [.began])
    }

    @Test("a began with no ended: the interrupted session is released")
    func beganWithoutEndedByRelease() {
        var scene = Scene()
        let app = scene.activeSession("app", .playback)
        let stream = scene.startStream("app", in: app)
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        scene.settle()
        let owner = scene.owner(of: app)
        _ = scene.call { .releaseSession($0, app, caller: owner) }
        scene.settle()
        scene.setActive(call, false, notify: true)
        #expect(scene.interruptionTypes(app) == [.began])
        #expect(!scene.isMuted(stream), "the released session's stream is restored")
        #expect(scene.journal.isEmpty)
    }

    @Test("two interrupters: ended comes only when the last one ends")
    func twoInterrupters() {
        var scene = Scene()
        let app = scene.activeSession("app", .playback)
        let stream = scene.startStream("app", in: app)
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        _ = scene.startStream("Alarm", role: "alarm")  // rank below the call: does not interrupt it
        scene.settle()
        scene.setActive(call, false, notify: true)
        #expect(scene.interruptionTypes(app) == [.began, .ended])
        #expect(!scene.isMuted(stream))
    }

    @Test("a policy session's player is paused on began and played on shouldResume only if it was playing")
    func policyPlayerPauseAndResume() {
        var scene = Scene()
        let stream = scene.startStream("Music Player", role: "music")
        let player = scene.policySession(of: stream)
        #expect(scene.engine.sessions[player]?.isActive == true)
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        scene.settle()
        #expect(scene.playerCommands(player) == ["pause"])
        scene.cork(stream)  // the player paused
        scene.setActive(call, false, notify: true)
        #expect(scene.playerCommands(player) == ["pause", "play"])
    }

    @Test("a paused player is not started again after the interruption")
    func pausedPlayerStaysPaused() {
        var scene = Scene()
        let stream = scene.startStream("Music Player", role: "music", corked: true)
        let player = scene.policySession(of: stream)
        scene.cork(stream, false)
        scene.cork(stream, true)
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        scene.setActive(call, false, notify: true)
        #expect(scene.playerCommands(player).isEmpty)
    }

    @Test("a browser-like policy is not resumed unless the user acts")
    func browserNotResumed() {
        var scene = Scene()
        let stream = scene.startStream("Browser", role: "video")
        let browser = scene.policySession(of: stream)
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        scene.settle()
        scene.setActive(call, false, notify: true)
        #expect(scene.playerCommands(browser) == ["pause"])
        #expect(scene.interruptions(browser).last?.shouldResume == true)
    }

    @Test("a stream that starts during a call starts muted, and is unmuted when the call ends")
    func streamStartingDuringCall() {
        var scene = Scene()
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        let stream = scene.startStream("Music Player", role: "music")
        let player = scene.policySession(of: stream)
        #expect(scene.isMuted(stream))
        #expect(scene.interruptionTypes(player) == [.began])
        scene.setActive(call, false, notify: true)
        #expect(!scene.isMuted(stream))
        #expect(scene.engine.sessions[player]?.isActive == true)
    }

    @Test("a stream with no role and no matching policy is never touched, not even by a call")
    func unmanagedStreamIsNeverTouched() {
        var scene = Scene()
        let stream = scene.startStream("some-tool")
        #expect(scene.engine.session(of: stream) == nil)
        _ = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        scene.settle()
        #expect(!scene.isMuted(stream) && scene.volume(stream) == 0xC000)
        #expect(scene.journal.isEmpty)
    }

    @Test("the user unmuting an interrupted stream is respected")
    func userUnmuteIsRespected() {
        var scene = Scene()
        let app = scene.activeSession("app", .playback)
        let stream = scene.startStream("app", in: app)
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        scene.settle()
        scene.userSetsMute(stream, false)
        scene.settle()
        #expect(!scene.isMuted(stream))
        scene.setActive(call, false, notify: true)
        scene.settle()
        #expect(!scene.isMuted(stream) && scene.volume(stream) == 0xC000)
        #expect(scene.journal.isEmpty)
    }

    @Test("the interruption mute comes after a short fade, and the volume under the mute is the user's")
    func fadeBeforeMute() {
        var scene = Scene()
        let app = scene.activeSession("app", .playback)
        let stream = scene.startStream("app", in: app, volume: 0x10000)
        _ = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        scene.advance(15)
        #expect(!scene.isMuted(stream) && scene.volume(stream) < 0x10000)
        scene.settle()
        #expect(scene.isMuted(stream) && scene.volume(stream) == 0x10000)
    }
}
