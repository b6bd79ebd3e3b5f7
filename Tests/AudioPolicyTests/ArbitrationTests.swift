// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel
import Testing

/// Arbitration (DESIGN.md §2): who interrupts whom when a session activates.
@Suite("Arbitration")
struct ArbitrationTests {
    /// (interrupter category, options, mode) → does it interrupt active playing music (playback)?
    static let interruptsMusicRows: [(SessionCategory, CategoryOptions, SessionMode, Bool)] = [
        (.ambient, [], .default, false),
        (.soloAmbient, [], .default, true),
        (.playback, [], .default, true),
        (.playback, .mixWithOthers, .default, false),
        (.playback, .duckOthers, .default, false),
        (.record, [], .default, true),
        (.playAndRecord, [], .default, true),
        (.playAndRecord, .mixWithOthers, .default, false),
        (.audioProcessing, [], .default, true),
        (.multiRoute, [], .default, true),
        (.multiRoute, .mixWithOthers, .default, false),
        (.playAndRecord, .mixWithOthers, .voiceChat, true),  // a call: the phone always wins
    ]

    @Test("activating a session interrupts non-mixable music unless it mixes; calls always do",
          arguments: interruptsMusicRows)
    func activationInterruptsMusic(row: (SessionCategory, CategoryOptions, SessionMode, Bool)) {
        let (category, options, mode, interrupts) = row
        var scene = Scene()
        let music = scene.activeSession("music", .playback)
        let stream = scene.startStream("music", in: music)
        scene.mark()
        _ = scene.activeSession("other", category, mode: mode, options: options)
        scene.settle()
        #expect(scene.interruptionTypes(music) == (interrupts ? [.began] : []))
        #expect(scene.isMuted(stream) == interrupts)
        #expect(scene.engine.sessions[music]?.isActive == !interrupts)
    }

    @Test("an ambient game leaves playing music alone; a soloAmbient game interrupts it")
    func ambientMixesSoloAmbientInterrupts() {
        var scene = Scene()
        let music = scene.activeSession("music", .playback)
        let stream = scene.startStream("music", in: music)
        _ = scene.activeSession("ambient-game", .ambient)
        #expect(scene.interruptionTypes(music).isEmpty && !scene.isMuted(stream))
        _ = scene.activeSession("solo-game", .soloAmbient)
        scene.settle()
        #expect(scene.interruptionTypes(music) == [.began])
        #expect(scene.isMuted(stream))
    }

    @Test("among equals the newest activation wins")
    func newestActivationWins() {
        var scene = Scene()
        let first = scene.activeSession("first", .playback)
        let second = scene.activeSession("second", .playback)
        #expect(scene.interruptions(first).map(\.interrupter) == ["second"])
        #expect(scene.engine.sessions[second]?.isActive == true)
        scene.mark()
        // The first app takes the audio back (the user pressed play): now the second is interrupted.
        #expect(scene.error(scene.setActive(first, true)) == nil)
        #expect(scene.interruptionTypes(second) == [.began])
    }

    @Test("a call interrupts mixable sessions too: the phone always wins")
    func callInterruptsEverything() {
        var scene = Scene()
        let game = scene.activeSession("game", .ambient)
        let radio = scene.activeSession("radio", .playback, options: .mixWithOthers)
        _ = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        #expect(scene.interruptionTypes(game) == [.began])
        #expect(scene.interruptionTypes(radio) == [.began])
    }

    @Test("while a call is active, a non-mixable session's activation fails with InsufficientPriority")
    func insufficientPriorityDuringCall() {
        var scene = Scene()
        _ = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        let music = scene.createSession("music")
        scene.setCategory(music, .playback)
        #expect(scene.error(scene.setActive(music, true)) == .insufficientPriority)
        #expect(scene.engine.sessions[music]?.isActive == false)
    }

    @Test("a mixable session activated during a call succeeds but starts interrupted")
    func mixableDuringCallStartsInterrupted() {
        var scene = Scene()
        _ = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        let game = scene.createSession("game")
        scene.setCategory(game, .ambient)
        #expect(scene.error(scene.setActive(game, true)) == nil)
        #expect(scene.interruptionTypes(game) == [.began])
    }

    @Test("deactivating while a stream still runs fails with IsBusy; after pausing it succeeds")
    func deactivateWithRunningStreamIsBusy() {
        var scene = Scene()
        let music = scene.activeSession("music", .playback)
        let stream = scene.startStream("music", in: music)
        #expect(scene.error(scene.setActive(music, false)) == .isBusy)
        #expect(scene.engine.sessions[music]?.isActive == true)
        scene.cork(stream)
        #expect(scene.error(scene.setActive(music, false)) == nil)
        #expect(scene.engine.sessions[music]?.isActive == false)
    }

    @Test("notifyOthersOnDeactivation ends the interruptions it caused with shouldResume")
    func notifyOthersGivesShouldResume() {
        var scene = Scene()
        let music = scene.activeSession("music", .playback)
        let stream = scene.startStream("music", in: music)
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        scene.settle()
        #expect(scene.isMuted(stream))
        scene.setActive(call, false, notify: true)
        #expect(scene.interruptions(music).last == .init(type: .ended, reason: .default, shouldResume: true, interrupter: "call"))
        #expect(!scene.isMuted(stream))
    }

    @Test("without notifyOthersOnDeactivation the interruption ends without shouldResume")
    func noNotifyNoShouldResume() {
        var scene = Scene()
        let music = scene.activeSession("music", .playback)
        let stream = scene.startStream("music", in: music)
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        scene.settle()
        scene.setActive(call, false)
        #expect(scene.interruptions(music).last?.type == .ended)
        #expect(scene.interruptions(music).last?.shouldResume == false)
        #expect(!scene.isMuted(stream))
    }

    @Test("a system alert interrupts others except sessions that prefer no interruptions from alerts")
    func alertsAndPrefersNoInterruptions() {
        var scene = Scene()
        let music = scene.activeSession("music", .playback)
        let recorder = scene.activeSession("recorder", .record, options: [])  // interrupts music: newest wins
        scene.mark()
        let caller = scene.owner(of: recorder)
        _ = scene.call { .setPrefersNoInterruptionsFromSystemAlerts($0, recorder, caller: caller, true) }
        let podcast = scene.activeSession("podcast", .playback, options: .mixWithOthers)
        _ = scene.startStream("Alarm", role: "alarm")
        #expect(scene.interruptionTypes(recorder).isEmpty)
        #expect(scene.interruptionTypes(podcast) == [.began])
        _ = music
    }

    @Test("interruptSpokenAudioAndMixWithOthers interrupts spoken audio and mixes with the rest")
    func interruptSpokenAudio() {
        var scene = Scene()
        let audiobook = scene.activeSession("audiobook", .playback, mode: .spokenAudio)
        let radio = scene.createSession("radio")
        scene.setCategory(radio, .playback, options: .mixWithOthers)
        _ = scene.activeSession("fitness", .playback, options: .interruptSpokenAudioAndMixWithOthers)
        #expect(scene.interruptionTypes(audiobook) == [.began])
        #expect(scene.interruptionTypes(radio).isEmpty)
    }

    @Test("only the owner may change a session: others get AccessDenied and nothing changes")
    func accessDenied() {
        var scene = Scene()
        let music = scene.createSession("music", owner: ":1.10")
        scene.setCategory(music, .playback)
        #expect(scene.error(scene.setActive(music, true, caller: ":1.99")) == .accessDenied)
        #expect(scene.engine.sessions[music]?.isActive == false)
        let configuration = try! SessionConfiguration(category: .ambient)
        #expect(scene.error(scene.call { .setConfiguration($0, music, caller: ":1.99", configuration) }) == .accessDenied)
        #expect(scene.engine.sessions[music]?.configuration.category == .playback)
        #expect(scene.error(scene.call { .releaseSession($0, music, caller: ":1.99") }) == .accessDenied)
        #expect(scene.engine.sessions[music] != nil)
    }

    @Test("a released or unknown session is ExpiredSession")
    func expiredSession() {
        var scene = Scene()
        let music = scene.createSession("music")
        let caller = scene.owner(of: music)
        #expect(scene.error(scene.call { .releaseSession($0, music, caller: caller) }) == nil)
        #expect(scene.error(scene.setActive(music, true, caller: caller)) == .expiredSession)
    }

    @Test("an owner that disconnects releases its sessions and undoes what they caused")
    func ownerVanishes() {
        var scene = Scene()
        let music = scene.activeSession("music", .playback)
        let stream = scene.startStream("music", in: music)
        let navigation = scene.activeSession("navigation", .playback, mode: .voicePrompt, options: .duckOthers)
        scene.settle()
        #expect(scene.volume(stream) < 0xC000)
        scene.send(.ownerVanished(busName: scene.owner(of: navigation)))
        scene.settle()
        #expect(scene.engine.sessions[navigation] == nil)
        #expect(scene.levels(stream) == StreamLevels(volume: ChannelVolumes(channels: 2, value: 0xC000), mute: false))
        #expect(scene.journal.isEmpty)
    }

    @Test("a policy with a higher priority ranks above ordinary sessions")
    func policyPriority() {
        var policies = Scene.policies
        policies.append(SessionPolicy(name: "emergency", configuration: try! SessionConfiguration(category: .playback),
                                      priority: 10, activation: .firstStream,
                                      match: PolicyMatch(applicationNames: ["Emergency"])))
        var scene = Scene(policies: policies)
        _ = scene.startStream("Emergency")
        let music = scene.createSession("music")
        scene.setCategory(music, .playback)
        #expect(scene.error(scene.setActive(music, true)) == .insufficientPriority)
    }
}
