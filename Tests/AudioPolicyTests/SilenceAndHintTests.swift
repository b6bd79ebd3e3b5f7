// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel
import Testing

/// Silent mode, screen lock, the secondary-audio hint, isOtherAudioPlaying and the muted microphone.
@Suite("Silence, hints and the microphone")
struct SilenceAndHintTests {
    /// category → silenced by silent mode and by the lock?
    static let silencedRows: [(SessionCategory, Bool)] = [
        (.ambient, true), (.soloAmbient, true), (.playback, false), (.playAndRecord, false), (.multiRoute, false),
    ]

    @Test("silent mode mutes the output of ambient and soloAmbient sessions only, until cleared",
          arguments: silencedRows)
    func silentMode(row: (SessionCategory, Bool)) {
        let (category, silenced) = row
        var scene = Scene()
        let session = scene.createSession("app")
        scene.setCategory(session, category)
        let stream = scene.startStream("app", in: session)
        scene.send(.silentMode(true))
        #expect(scene.isMuted(stream) == silenced)
        scene.send(.silentMode(false))
        #expect(!scene.isMuted(stream))
        #expect(scene.journal.isEmpty)
    }

    @Test("the screen lock mutes ambient and soloAmbient output; playback and recording go on",
          arguments: silencedRows)
    func screenLock(row: (SessionCategory, Bool)) {
        let (category, silenced) = row
        var scene = Scene()
        let session = scene.createSession("app")
        scene.setCategory(session, category)
        let stream = scene.startStream("app", in: session)
        let recording = scene.startStream("app", in: session, direction: .input)
        // (Input in these categories records silence anyway: CannotStartRecording.)
        let recordingMuted = scene.isMuted(recording)
        scene.send(.screenLocked(true))
        #expect(scene.isMuted(stream) == silenced)
        #expect(scene.isMuted(recording) == recordingMuted, "input is never silenced by the lock")
        scene.send(.screenLocked(false))
        #expect(!scene.isMuted(stream))
    }

    @Test("silent mode and the lock overlap: the stream comes back when both are cleared")
    func silentAndLockOverlap() {
        var scene = Scene()
        let game = scene.createSession("game")
        scene.setCategory(game, .ambient)
        let stream = scene.startStream("game", in: game)
        scene.send(.silentMode(true))
        scene.send(.screenLocked(true))
        scene.send(.silentMode(false))
        #expect(scene.isMuted(stream))
        scene.send(.screenLocked(false))
        #expect(!scene.isMuted(stream))
    }

    @Test("a stream of an ambient session that starts in silent mode starts muted")
    func streamStartsSilenced() {
        var scene = Scene()
        scene.send(.silentMode(true))
        let game = scene.createSession("game")
        scene.setCategory(game, .ambient)
        let stream = scene.startStream("game", in: game)
        #expect(scene.isMuted(stream))
    }

    @Test("the secondary-audio hint begins when another app's non-mixable audio starts and ends when it stops")
    func secondaryAudioHint() {
        var scene = Scene()
        let game = scene.activeSession("game", .ambient)
        let music = scene.activeSession("music", .playback)
        #expect(scene.hints(game) == [.begin])
        #expect(scene.hints(music).isEmpty, "no hint about one's own audio")
        scene.setActive(music, false)
        #expect(scene.hints(game) == [.begin, .end])
        #expect(scene.engine.sessions[game]?.secondaryAudioShouldBeSilenced == false)
    }

    @Test("a call that starts while music plays hints the music only: the call's own session hears no begin and end in one step")
    func hintIsTheStepsNetChange() {
        var scene = Scene()
        let song = scene.startStream("Music Player", role: "music")
        scene.settle()
        let music = scene.policySession(of: song)
        scene.mark()
        let phone = scene.startStream("Phone", role: "phone")
        let call = scene.policySession(of: phone)
        #expect(scene.hints(music) == [.begin])
        #expect(scene.hints(call).isEmpty, "the call is the primary audio: \(scene.actions)")
        #expect(scene.engine.sessions[call]?.secondaryAudioShouldBeSilenced == false)
    }

    @Test("isOtherAudioPlaying sees other apps' running output, not one's own")
    func isOtherAudioPlaying() {
        var scene = Scene()
        let game = scene.activeSession("game", .ambient)
        let own = scene.startStream("game", in: game)
        #expect(!scene.engine.isOtherAudioPlaying(for: game))
        let other = scene.startStream("some-tool")
        #expect(scene.engine.isOtherAudioPlaying(for: game))
        scene.cork(other)
        #expect(!scene.engine.isOtherAudioPlaying(for: game))
        scene.stopStream(own)
        scene.cork(other, false)
        #expect(scene.engine.isOtherAudioPlaying(for: game))
    }

    @Test("muting the microphone interrupts a recording session with builtInMicMuted; unmuting ends it")
    func microphoneMuted() {
        var scene = Scene()
        let recorder = scene.activeSession("recorder", .record)
        scene.setDeviceMute(scene.microphone, true)
        #expect(scene.interruptions(recorder) == [.init(type: .began, reason: .builtInMicMuted, shouldResume: false, interrupter: nil)])
        scene.setDeviceMute(scene.microphone, false)
        #expect(scene.interruptions(recorder).last == .init(type: .ended, reason: .builtInMicMuted, shouldResume: true, interrupter: nil))
    }

    @Test("overrideMutedMicrophoneInterruption keeps a recording session active when the mic is muted")
    func microphoneMutedOverride() {
        var scene = Scene()
        let recorder = scene.activeSession("recorder", .record, options: .overrideMutedMicrophoneInterruption)
        scene.setDeviceMute(scene.microphone, true)
        #expect(scene.interruptions(recorder).isEmpty)
        #expect(scene.engine.sessions[recorder]?.isActive == true)
    }

    @Test("activating a recording session while the mic is muted interrupts it at once")
    func activateWithMicMuted() {
        var scene = Scene()
        scene.setDeviceMute(scene.microphone, true)
        let recorder = scene.activeSession("recorder", .playAndRecord)
        #expect(scene.interruptions(recorder).map(\.reason) == [.builtInMicMuted])
    }

    @Test("a playback session does not care about the microphone")
    func playbackIgnoresMic() {
        var scene = Scene()
        let music = scene.activeSession("music", .playback)
        scene.setDeviceMute(scene.microphone, true)
        #expect(scene.interruptions(music).isEmpty)
    }
}
