// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel
import Testing

/// duckOthers (DESIGN.md §2): lowering others with a fade and restoring the user's exact volume.
@Suite("Ducking")
struct DuckingTests {
    static let userVolume: UInt32 = 0xC000

    /// Music playing at the user's volume, and a navigation session that ducks it.
    func musicAndNavigation() -> (Scene, music: SessionID, stream: StreamID, navigation: SessionID) {
        var scene = Scene()
        let music = scene.activeSession("music", .playback)
        let stream = scene.startStream("music", in: music, volume: Self.userVolume)
        let navigation = scene.createSession("navigation")
        scene.setCategory(navigation, .playback, mode: .voicePrompt, options: .duckOthers)
        return (scene, music, stream, navigation)
    }

    @Test("a ducking session lowers music to the duck level with a fade, and restores it exactly")
    func duckAndRestoreExactly() {
        var (scene, music, stream, navigation) = musicAndNavigation()
        scene.setActive(navigation, true)
        scene.advance(50)
        let midway = scene.volume(stream)
        #expect(midway < Self.userVolume && midway > Self.userVolume / 5, "the duck is a fade, not a jump")
        scene.settle()
        #expect(scene.volume(stream) == UInt32(Double(Self.userVolume) * 0.2))
        #expect(scene.interruptionTypes(music).isEmpty, "ducking is not an interruption")
        #expect(scene.journal[stream] != nil)
        scene.setActive(navigation, false)
        scene.settle()
        #expect(scene.levels(stream) == StreamLevels(volume: ChannelVolumes(channels: 2, value: Self.userVolume), mute: false))
        #expect(scene.journal.isEmpty)
    }

    @Test("a ducker whose owner vanishes (quit or crashed) has its duck undone at once, not faded")
    func vanishedOwnerUndoesAtOnce() {
        var (scene, _, stream, navigation) = musicAndNavigation()
        scene.setActive(navigation, true)
        scene.settle()
        scene.send(.ownerVanished(busName: scene.owner(of: navigation)))
        #expect(scene.levels(stream) == StreamLevels(volume: ChannelVolumes(channels: 2, value: Self.userVolume), mute: false),
                "back in the same step, before any tick")
        #expect(scene.journal.isEmpty)
    }

    @Test("a user's volume change during the duck is kept after the unduck")
    func userChangeDuringDuckIsKept() {
        var (scene, _, stream, navigation) = musicAndNavigation()
        scene.setActive(navigation, true)
        scene.settle()
        scene.userSetsVolume(stream, 0x8000)
        scene.settle()
        #expect(scene.volume(stream) == 0x8000, "the bridge does not fight the user")
        scene.setActive(navigation, false)
        scene.settle()
        #expect(scene.volume(stream) == 0x8000)
        #expect(scene.engine.userLevels(of: stream)?.volume.values == [0x8000, 0x8000])
        #expect(scene.journal.isEmpty)
    }

    @Test("a user's change in the middle of a duck fade is kept too")
    func userChangeDuringFade() {
        var (scene, _, stream, navigation) = musicAndNavigation()
        scene.setActive(navigation, true)
        scene.advance(30)
        scene.userSetsVolume(stream, 0x9000)
        scene.settle()
        #expect(scene.volume(stream) == 0x9000)
        scene.setActive(navigation, false)
        scene.settle()
        #expect(scene.volume(stream) == 0x9000)
    }

    @Test("late reports of the bridge's own steps are not mistaken for the user's")
    func lateReportsAreOurs() {
        var (scene, _, stream, navigation) = musicAndNavigation()
        scene.holdReports = true
        scene.setActive(navigation, true)
        scene.advance(100)
        scene.deliverReports()
        scene.settle()
        scene.deliverReports()
        #expect(scene.volume(stream) == UInt32(Double(Self.userVolume) * 0.2))
        scene.setActive(navigation, false)
        scene.settle()
        scene.deliverReports()
        #expect(scene.volume(stream) == Self.userVolume)
        #expect(scene.engine.userLevels(of: stream)?.volume.values == [Self.userVolume, Self.userVolume])
    }

    @Test("two overlapping duckers: the lower level rules, and the volume comes back only when both end")
    func overlappingDuckers() {
        var (scene, _, stream, navigation) = musicAndNavigation()
        let assistant = scene.createSession("assistant")
        scene.setCategory(assistant, .playback, options: .duckOthers)
        scene.setActive(navigation, true)
        scene.settle()
        let ducked = scene.volume(stream)
        scene.setActive(assistant, true)
        scene.settle()
        #expect(scene.volume(stream) == ducked)
        scene.setActive(navigation, false)
        scene.settle()
        #expect(scene.volume(stream) == ducked, "still ducked by the assistant")
        scene.setActive(assistant, false)
        scene.settle()
        #expect(scene.volume(stream) == Self.userVolume)
        #expect(scene.journal.isEmpty)
    }

    @Test("interrupting an already ducked stream mutes it; each cause ends on its own")
    func interruptDuckedStream() {
        var (scene, music, stream, navigation) = musicAndNavigation()
        scene.setActive(navigation, true)
        scene.settle()
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        scene.settle()
        #expect(scene.isMuted(stream))
        #expect(scene.interruptionTypes(music) == [.began])
        scene.setActive(call, false, notify: true)
        scene.settle()
        #expect(!scene.isMuted(stream))
        #expect(scene.volume(stream) == Self.userVolume, "the call interrupted navigation too, so nothing ducks")
        scene.setActive(navigation, true)  // navigation resumes on shouldResume
        scene.settle()
        #expect(scene.volume(stream) < Self.userVolume, "navigation ducks again")
        scene.setActive(navigation, false)
        scene.settle()
        #expect(scene.levels(stream) == StreamLevels(volume: ChannelVolumes(channels: 2, value: Self.userVolume), mute: false))
        #expect(scene.journal.isEmpty)
    }

    @Test("a call arriving while a navigation prompt ducks music interrupts both, and each comes back")
    func callWhileNavigationDucksMusic() {
        var (scene, music, stream, navigation) = musicAndNavigation()
        let prompt = scene.startStream("navigation", in: navigation)
        scene.setActive(navigation, true)
        scene.settle()
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        scene.settle()
        #expect(scene.interruptionTypes(music) == [.began])
        #expect(scene.interruptionTypes(navigation) == [.began])
        #expect(scene.isMuted(stream) && scene.isMuted(prompt))
        // The interrupted navigation session no longer ducks: only the call holds the music down.
        #expect(!scene.engine.duckingSessions.contains(navigation))
        scene.setActive(call, false, notify: true)
        scene.settle()
        #expect(scene.interruptions(music).last?.shouldResume == true)
        #expect(scene.interruptions(navigation).last?.shouldResume == true)
        #expect(!scene.isMuted(stream) && scene.volume(stream) == Self.userVolume)
        #expect(!scene.isMuted(prompt))
        #expect(scene.journal.isEmpty)
    }

    @Test("a stream that starts while another session ducks starts ducked")
    func newStreamStartsDucked() {
        var (scene, music, _, navigation) = musicAndNavigation()
        scene.setActive(navigation, true)
        scene.settle()
        let second = scene.startStream("music", in: music, volume: 0x10000)
        #expect(scene.volume(second) == UInt32(Double(0x10000) * 0.2))
    }

    @Test("a policy that ducks when interrupted is lowered instead of muted")
    func duckInsteadOfPause() {
        var policies = Scene.policies
        policies.append(SessionPolicy(name: "ducks", configuration: try! SessionConfiguration(category: .playback),
                                      activation: .firstStream, whenInterrupted: .duck,
                                      match: PolicyMatch(applicationNames: ["Radio"])))
        var scene = Scene(policies: policies)
        let stream = scene.startStream("Radio", volume: 0x10000)
        let radio = scene.policySession(of: stream)
        _ = scene.activeSession("recorder", .record)
        scene.settle()
        #expect(scene.interruptionTypes(radio) == [.began])
        #expect(!scene.isMuted(stream) && scene.volume(stream) == 0x10000 / 5)
    }
}

@Suite("Stopping the bridge")
struct ShutdownTests {
    @Test("a stopping bridge undoes every mute and duck at once and applies none again")
    func shutdownUndoesEverything() {
        var scene = Scene()
        let music = scene.activeSession("music", .playback)
        let song = scene.startStream("music", in: music, volume: 0xC000)
        _ = scene.activeSession("navigation", .playback, options: .duckOthers)
        let game = scene.createSession("game")
        scene.setCategory(game, .ambient)
        let effects = scene.startStream("game", in: game)
        scene.send(.silentMode(true))
        scene.settle()
        #expect(scene.isMuted(effects) && scene.volume(song) < 0xC000)
        scene.send(.shutdown)
        #expect(!scene.isMuted(effects) && scene.volume(song) == 0xC000)
        #expect(scene.journal.isEmpty)
        #expect(scene.remembered["sink-input-by-application-name:music"]?.volume.values == [0xC000, 0xC000])
        scene.send(.screenLocked(true))
        #expect(!scene.isMuted(effects), "nothing is applied after shutdown")
    }
}

extension DuckingTests {
    /// A duck whose first step went out with its report held, and the user's report of 0x8000 made
    /// before it (the server applied the step over the change); `precedingCommand` and
    /// `answersMayPrecedeCommands` as the shell marks them.
    func duckOverAUsersChange(precedingCommand: Bool, answersMayPrecedeCommands: Bool = false)
        -> (Scene, stream: StreamID, navigation: SessionID)
    {
        var (scene, _, stream, navigation) = musicAndNavigation()
        scene.holdReports = true
        scene.setActive(navigation, true)  // the fade's first step goes out; its report waits
        #expect(scene.serverStreams[stream]!.volume.values.allSatisfy { $0 < Self.userVolume })
        var userReport = scene.serverStreams[stream]!
        userReport.volume = ChannelVolumes(channels: 2, value: 0x8000)
        userReport.levelsPrecedeLastCommand = precedingCommand
        userReport.answersMayPrecedeCommands = answersMayPrecedeCommands
        scene.send(.streamChanged(userReport))
        scene.deliverReports()
        scene.holdReports = false
        scene.deliverReports()
        scene.settle()
        return (scene, stream, navigation)
    }

    @Test("on pipewire-pulse, a step of the bridge's reported after the user's change shows the change came first: the duck stands on it")
    func stepReportedAfterUserChange() {
        // The answer to a query sent after the step shows the user's level: on pipewire-pulse, which may
        // answer before it carries out the step, that alone cannot say which came first. The step
        // reported after it can: the server carried it out after the change.
        var (scene, stream, navigation) = duckOverAUsersChange(precedingCommand: false, answersMayPrecedeCommands: true)
        #expect(scene.volume(stream) == UInt32(Double(0x8000) * 0.2), "ducked from the user's new level")
        #expect(scene.engine.userLevels(of: stream)?.volume.values == [0x8000, 0x8000])
        scene.setActive(navigation, false)
        scene.settle()
        #expect(scene.volume(stream) == 0x8000)
        #expect(scene.journal.isEmpty)
    }

    @Test("a user's change made just before the duck, reported after its first step, is the level the duck stands on")
    func userChangeJustBeforeTheDuck() {
        // The server was asked about the user's change before the step went out; the answer says so.
        var (scene, stream, navigation) = duckOverAUsersChange(precedingCommand: true)
        #expect(scene.volume(stream) == UInt32(Double(0x8000) * 0.2), "ducked from the user's new level")
        #expect(scene.engine.userLevels(of: stream)?.volume.values == [0x8000, 0x8000])
        scene.setActive(navigation, false)
        scene.settle()
        #expect(scene.volume(stream) == 0x8000)
        #expect(scene.journal.isEmpty)
    }
}

extension DuckingTests {
    @Test("the user's unmute reported before the silent switch's mute lands: on pipewire-pulse the mute stands on it, on PulseAudio the unmute overrides it",
          arguments: [true, false])
    func unmuteJustBeforeAMute(answersMayPrecedeCommands: Bool) {
        var scene = Scene()
        let game = scene.createSession("game")
        scene.setCategory(game, .ambient)
        let effects = scene.startStream("game", in: game)
        scene.holdReports = true
        scene.send(.silentMode(true))  // the mute goes out; its report waits
        #expect(scene.isMuted(effects))
        // On PulseAudio an answer to a query sent after the mute reflects it: an unmute it shows came
        // after the mute, and the server is where the user put it. On pipewire-pulse the unmute may
        // have come first, and the server ends muted.
        if !answersMayPrecedeCommands { scene.serverStreams[effects]!.mute = false }
        // The user's unmute, from a query sent after the mute: its answer does not show the mute.
        var userReport = scene.serverStreams[effects]!
        userReport.mute = false
        userReport.answersMayPrecedeCommands = answersMayPrecedeCommands
        scene.send(.streamChanged(userReport))
        scene.holdReports = false
        if answersMayPrecedeCommands {
            scene.deliverReports()  // pipewire-pulse carries the mute out after the unmute, and reports it
        } else {
            scene.heldReports = []  // PulseAudio never reports the mute again: the unmute overwrote it
        }
        scene.settle()
        // pipewire-pulse: the unmute came first, and the silent switch stands. PulseAudio: the unmute
        // overrides the switch until it is turned off.
        #expect(scene.isMuted(effects) == answersMayPrecedeCommands)
        #expect(scene.engine.userLevels(of: effects)?.mute == false)
        scene.send(.silentMode(false))
        scene.settle()
        #expect(!scene.isMuted(effects), "the user's own level after the switch")
        #expect(scene.journal.isEmpty)
    }
}
