// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel
import Testing

/// A fade's next step waits until the server has answered the mutes and volumes sent before it (DESIGN
/// §3, *Order, not timing*): a server slow to carry out level commands would otherwise take every step
/// in one turn of its loop and announce none until the fade is over. The first step never waits.
@Suite("Fade steps wait for the server's answers")
struct FadePacingTests {
    /// A music stream playing, then a call: the fade's first step is out, its answers not yet in.
    static func callWithAnswersOut() -> (Scene, StreamID, UInt32) {
        var scene = Scene()
        let song = scene.startStream("Music Player", role: "music")
        scene.settle()
        let before = scene.volume(song)
        scene.startStream("Phone", role: "phone")
        scene.engine.levelCommandsUnanswered = true
        return (scene, song, before)
    }

    @Test("while the answers are out, no step leaves and no tick is asked for again; the fade's first step is out already")
    func heldWhileUnanswered() {
        var (scene, song, before) = Self.callWithAnswersOut()
        let firstStep = scene.volume(song)
        #expect(firstStep < before, "the first step left with the decision")
        scene.advance(100)
        #expect(scene.volume(song) == firstStep && !scene.isMuted(song), "no later step, no mute")
        #expect(scene.engine.fadeStepOverdue, "the due step is held")
        #expect(scene.tickAt == nil, "the held step's deadline is not asked for again: nothing to wake for")
    }

    /// Each row: when the answers come in, in milliseconds after the call, and what the tick then does.
    @Test("once the answers are in, the tick sends the step its time calls for",
          arguments: [(15, false), (45, true)])
    func stepOnAnswers(answeredAfter milliseconds: UInt64, muted: Bool) {
        var (scene, song, _) = Self.callWithAnswersOut()
        let firstStep = scene.volume(song)
        scene.advance(milliseconds)
        var schedule = StepSchedule(engine: scene.engine)
        let asksForTick = schedule.levelCommands(unanswered: false)
        #expect(asksForTick, "a held step asks for a tick")
        scene.engine = schedule.engine
        scene.send(.tick)
        #expect(!scene.engine.fadeStepOverdue)
        if muted {
            #expect(scene.isMuted(song), "past the fade's end: muted at once")
        } else {
            #expect(!scene.isMuted(song) && scene.volume(song) < firstStep, "a later step, lower than the first")
            #expect(scene.tickAt != nil, "the fade's next step has its deadline again")
        }
    }

    @Test("answers that come before the step is due ask for no tick; the fade goes on by its clock")
    func noTickWhenNothingWaits() {
        var (scene, song, _) = Self.callWithAnswersOut()
        var schedule = StepSchedule(engine: scene.engine)
        let asksForTick = schedule.levelCommands(unanswered: false)
        #expect(!asksForTick)
        scene.engine = schedule.engine
        scene.advance(29)
        #expect(!scene.isMuted(song), "not muted before the fade's end")
        scene.advance(1)
        #expect(scene.isMuted(song), "muted at the fade's end, on the clock's ticks alone")
    }
}
