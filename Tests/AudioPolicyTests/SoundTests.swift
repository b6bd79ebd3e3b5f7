// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel
import Testing

/// Sound, not presence (DESIGN §2): a stream of a policy with a silence time holds its effect on others
/// only while it carries sound; the shell reports its sound, the engine decides.
@Suite("Sound, not presence")
struct SoundTests {
    static let silence = Duration.milliseconds(250)

    /// The shipped kinds with a screen reader that ducks others while it speaks, a talking app that
    /// interrupts (a non-mixable playback session per stream), and a navigation app that does not
    /// watch its sound.
    static var policies: [SessionPolicy] {
        var reader = SessionPolicy(name: "screen-reader",
                                   configuration: try! SessionConfiguration(category: .playback, mode: .spokenAudio, options: .duckOthers),
                                   priority: 20, activation: .perStream, whenInterrupted: .mix, duckLevel: 0.4,
                                   match: PolicyMatch(applicationNames: ["speech-dispatcher"]))
        reader.releaseAfterSilence = silence
        var talker = SessionPolicy(name: "talker", configuration: try! SessionConfiguration(category: .playback),
                                   activation: .perStream, match: PolicyMatch(applicationNames: ["Talker"]))
        talker.releaseAfterSilence = .seconds(1)
        return [reader, talker] + Scene.policies
    }

    func watched(_ scene: Scene) -> [StreamID: Duration] {
        var result: [StreamID: Duration] = [:]
        for action in scene.actions {
            if case .watchSound(let id, let silence) = action { result[id] = silence }
            if case .stopWatchingSound(let id) = action { result[id] = nil }
        }
        return result
    }

    @Test("only streams whose policy has a silence time are watched, and no longer once they end")
    func watchedOnlyWhenAsked() {
        var scene = Scene(policies: Self.policies)
        let music = scene.startStream("Music Player", role: "music")
        let speech = scene.startStream("speech-dispatcher")
        #expect(watched(scene) == [speech: Self.silence])
        scene.stopStream(speech)
        #expect(watched(scene).isEmpty)
        _ = music
    }

    @Test("a screen reader ducks music while it speaks; the open, quiet stream gives it back and takes it again")
    func duckFollowsSound() {
        var scene = Scene(policies: Self.policies)
        let music = scene.startStream("Music Player", role: "music", volume: 0xC000)
        scene.settle()
        let speech = scene.startStream("speech-dispatcher")
        scene.settle()
        #expect(scene.volume(music) == UInt32(Double(0xC000) * 0.4), "ducked while it speaks")
        scene.send(.streamSilent(speech))
        scene.settle()
        #expect(scene.levels(music) == StreamLevels(volume: ChannelVolumes(channels: 2, value: 0xC000), mute: false))
        #expect(scene.journal.isEmpty)
        #expect(scene.engine.streams[speech] != nil, "the stream is still open")
        scene.send(.streamSounding(speech))
        scene.settle()
        #expect(scene.volume(music) == UInt32(Double(0xC000) * 0.4), "ducked again at the next sentence")
    }

    @Test("a talking app's interruption ends when it falls silent, with shouldResume, and comes back when it talks")
    func interruptionFollowsSound() {
        var scene = Scene(policies: Self.policies)
        let music = scene.activeSession("music", .playback)
        let song = scene.startStream("music", in: music)
        let talk = scene.startStream("Talker")
        scene.settle()
        #expect(scene.isMuted(song))
        scene.send(.streamSilent(talk))
        scene.settle()
        #expect(!scene.isMuted(song))
        #expect(scene.interruptions(music).map(\.type) == [.began, .ended])
        #expect(scene.interruptions(music).last?.shouldResume == true)
        scene.setActive(music, true)  // the app resumes, as shouldResume invites
        scene.send(.streamSounding(talk))
        scene.settle()
        #expect(scene.interruptions(music).map(\.type) == [.began, .ended, .began])
        #expect(scene.isMuted(song))
    }

    @Test("a silent stream is not other audio playing; a report for a stream not watched changes nothing")
    func silentIsNotPlaying() {
        var scene = Scene(policies: Self.policies)
        let music = scene.activeSession("music", .playback)
        let speech = scene.startStream("speech-dispatcher")
        #expect(scene.engine.isOtherAudioPlaying(for: music))
        scene.send(.streamSilent(speech))
        #expect(!scene.engine.isOtherAudioPlaying(for: music))
        let game = scene.startStream("Game")
        scene.mark()
        scene.send(.streamSilent(game))
        #expect(scene.actions.isEmpty)
        #expect(scene.engine.isOtherAudioPlaying(for: music))
        // Corked while silent, then uncorked: still silent until it sounds.
        scene.stopStream(game)
        scene.cork(speech, true)
        scene.cork(speech, false)
        #expect(!scene.engine.isOtherAudioPlaying(for: music))
        scene.send(.streamSounding(speech))
        #expect(scene.engine.isOtherAudioPlaying(for: music))
    }
}
