// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel
import Testing

/// Calls inside apps that also play media (DESIGN §2): a browser in a web meeting acts as a call for
/// that time, and its hang-up gives the music back with shouldResume.
@Suite("Calls inside apps that also play media")
struct CallDetectionTests {
    /// The shipped kinds, with a browser whose policy watches for calls.
    static var policies: [SessionPolicy] {
        var browser = SessionPolicy(name: "browser-like", configuration: try! SessionConfiguration(category: .playback),
                                    activation: .firstStream, resume: .never, usesMPRIS: true,
                                    match: PolicyMatch(applicationNames: ["Chromium", "Chromium input"]))
        browser.calls = CallDetection(whileRecording: true, engines: ["WEBRTC VoiceEngine"])
        return [browser] + Scene.policies
    }

    func musicPlaying() -> (Scene, music: SessionID, song: StreamID) {
        var scene = Scene(policies: Self.policies)
        let song = scene.startStream("Music Player", role: "music")
        scene.settle()
        return (scene, scene.policySession(of: song), song)
    }

    @Test("a browser that records while it plays is in a call: the music pauses, and at hang-up it may resume")
    func webMeeting() {
        var (scene, music, song) = musicPlaying()
        let farEnd = scene.startStream("Chromium", pid: 4242)
        scene.settle()
        let browser = scene.policySession(of: farEnd)
        #expect(scene.engine.sessions[browser]?.call == nil, "a video is no call")
        let microphone = scene.startStream("Chromium input", direction: .input, pid: 4242)
        scene.settle()
        #expect(scene.policySession(of: microphone) == browser, "one app per process: the call is both streams")
        #expect(scene.engine.sessions[browser]?.call == .recordingWhilePlaying)
        #expect(scene.engine.sessions[browser]?.configuration.isCall == true)
        #expect(scene.isMuted(song))
        scene.stopStream(microphone)
        scene.stopStream(farEnd)
        scene.settle()
        #expect(scene.interruptions(music).last?.type == .ended)
        #expect(scene.interruptions(music).last?.shouldResume == true, "the music may play again")
        #expect(!scene.isMuted(song))
        #expect(scene.engine.sessions[browser] == nil || scene.engine.sessions[browser]?.call == nil)
    }

    @Test("a stream named as a call engine puts the app in a call; a policy that does not watch for calls never is")
    func callEngineAndOtherPolicies() {
        var (scene, music, song) = musicPlaying()
        let voice = scene.startStream("Chromium", pid: 777, mediaName: "WEBRTC VoiceEngine")
        scene.settle()
        let browser = scene.policySession(of: voice)
        #expect(scene.engine.sessions[browser]?.call == .callEngine("WEBRTC VoiceEngine"))
        #expect(scene.engine.sessions[browser]?.rank == SessionPolicy.callPriority)
        scene.stopStream(voice)
        scene.settle()
        #expect(scene.interruptions(music).last?.shouldResume == true)
        #expect(!scene.isMuted(song))

        // A media player that records and plays is still a media player.
        let player = scene.startStream("Music Player", pid: 99)
        _ = scene.startStream("Music Player", direction: .input, pid: 99)
        scene.settle()
        #expect(scene.engine.sessions[scene.policySession(of: player)]?.call == nil)
    }

    @Test("after the call the browser is under its own policy again: a page that still plays is playback")
    func afterTheCall() {
        var (scene, _, _) = musicPlaying()
        let farEnd = scene.startStream("Chromium", pid: 4242)
        let microphone = scene.startStream("Chromium input", direction: .input, pid: 4242)
        scene.settle()
        let browser = scene.policySession(of: farEnd)
        #expect(scene.engine.sessions[browser]?.call != nil)
        scene.stopStream(microphone)
        scene.settle()
        #expect(scene.engine.sessions[browser]?.call == nil)
        #expect(scene.engine.sessions[browser]?.configuration.category == .playback)
        #expect(scene.engine.sessions[browser]?.configuration.isCall == false)
    }

    @Test("at hang-up the far end may close a moment after the microphone: the music is not paused again meanwhile")
    func farEndClosesLast() {
        var (scene, music, song) = musicPlaying()
        let farEnd = scene.startStream("Chromium", pid: 4242)
        let microphone = scene.startStream("Chromium input", direction: .input, pid: 4242)
        scene.settle()
        #expect(scene.isMuted(song))
        scene.stopStream(microphone)
        scene.advance(100)
        #expect(!scene.isMuted(song), "the music is given back at once")
        scene.stopStream(farEnd)
        scene.settle()
        #expect(!scene.isMuted(song))
        #expect(scene.interruptions(music).map(\.type) == [.began, .ended])
        // A page that plays afterwards is a browser's playback again.
        let video = scene.startStream("Chromium", pid: 4242)
        scene.settle()
        #expect(scene.engine.sessions[scene.policySession(of: video)]?.isActive == true)
        #expect(scene.isMuted(song))
    }
}
