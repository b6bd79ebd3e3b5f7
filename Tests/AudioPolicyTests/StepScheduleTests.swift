// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel
import Testing

/// The shell's schedule of steps (``StepSchedule``), driven by a manual clock: when a call's first moves
/// leave, when its step and the events behind it run, and when the engine decides ahead again.
@Suite("The schedule of steps, on a manual clock")
struct StepScheduleTests {
    let timing = StepSchedule.Timing()

    /// Music playing at a user's volume with the first moves decided, handed to a schedule at 10 s.
    func musicPlaying() -> (StepSchedule, Scene, song: StreamID, start: EngineTime) {
        var scene = Scene(policies: FirstMovesTests.policies)
        let song = scene.startStream("Music Player", role: "music", volume: 0xB000)
        scene.settle()
        scene.engine.prepareFirstMoves()
        return (StepSchedule(engine: scene.engine), scene, song, scene.now)
    }

    /// Every piece of work due at `now`.
    func drain(_ schedule: inout StepSchedule, at now: EngineTime) -> [StepSchedule.Work] {
        var done: [StepSchedule.Work] = []
        while let work = schedule.next(at: now) { done.append(work) }
        return done
    }

    func stepped(_ work: [StepSchedule.Work]) -> [PolicyEvent] {
        work.compactMap { if case .stepped(let event, _) = $0 { event } else { nil } }
    }

    func sentAhead(_ work: [StepSchedule.Work]) -> [PolicyAction] {
        work.flatMap { work -> [PolicyAction] in if case .sendAhead(let moves) = work { moves } else { [] } }
    }

    func stepActions(_ work: [StepSchedule.Work]) -> [PolicyAction] {
        work.flatMap { work -> [PolicyAction] in if case .stepped(_, let actions) = work { actions } else { [] } }
    }

    @Test("a call's first moves leave at once; its step, and the events behind it, wait for the head start")
    func headStart() throws {
        var (schedule, scene, song, t0) = musicPlaying()
        let call = scene.makeStream("softphone", role: "phone")
        schedule.receive(.streamAppeared(call))
        let atOnce = drain(&schedule, at: t0)
        let moves = sentAhead(atOnce)
        #expect(stepped(atOnce).isEmpty, "the step waits")
        #expect(!moves.isEmpty && moves.allSatisfy { if case .journalWrite(let entry) = $0 { entry.stream == song } else { $0.isServerCommand } })
        #expect(schedule.holdsForFirstMoves)
        #expect(schedule.nextDeadline == t0 + timing.headStartOfFirstMoves)

        schedule.receive(.screenLocked(true))
        let early = t0 + (timing.headStartOfFirstMoves - .microseconds(1))
        #expect(drain(&schedule, at: early).isEmpty, "an event behind the call waits with it")

        let due = drain(&schedule, at: t0 + timing.headStartOfFirstMoves)
        #expect(stepped(due).count == 2, "the call's step, then the event behind it: \(due)")
        #expect(!schedule.holdsForFirstMoves)
        let again = stepActions(due).filter { action in moves.contains { PolicyEngine.isSameMove($0, action) } }
        #expect(again.isEmpty, "what was sent ahead is not sent twice: \(again)")
    }

    @Test("the call's step runs as of the call's arrival, so its fade keeps its pace")
    func stepBackDated() throws {
        var (schedule, scene, _, t0) = musicPlaying()
        schedule.receive(.streamAppeared(scene.makeStream("softphone", role: "phone")))
        _ = drain(&schedule, at: t0)
        let ticks = stepActions(drain(&schedule, at: t0 + .milliseconds(50))).compactMap { action -> EngineTime? in
            if case .scheduleTick(let at) = action { at } else { nil }
        }
        #expect(ticks == [t0 + scene.engine.settings.fadeStep], "the fade's next step is due a step after the arrival")
    }

    @Test("the bridge's stop is not held behind a head start")
    func stopCutsHeadStartShort() throws {
        var (schedule, scene, _, t0) = musicPlaying()
        schedule.receive(.streamAppeared(scene.makeStream("softphone", role: "phone")))
        _ = drain(&schedule, at: t0)
        schedule.receive(.shutdown)
        let events = stepped(drain(&schedule, at: t0))
        #expect(events.count == 2, "\(events)")
        if case .shutdown = events.last {} else { Issue.record("the stop is stepped at once: \(events)") }
    }

    @Test("an event with no first moves is stepped at once")
    func plainEvent() {
        var (schedule, _, _, t0) = musicPlaying()
        schedule.receive(.screenLocked(true))
        #expect(stepped(drain(&schedule, at: t0)).count == 1)
        #expect(!schedule.holdsForFirstMoves)
    }

    @Test("deciding ahead waits for a quiet period that later steps do not restart, then decides one kind per wake")
    func decidesAheadWhenQuiet() {
        var (schedule, _, _, t0) = musicPlaying()
        schedule.receive(.screenLocked(true))
        _ = drain(&schedule, at: t0)
        #expect(!schedule.engine.firstMovesAreReady, "a step makes the table stale")
        #expect(schedule.nextDeadline == t0 + timing.quietBeforeDecidingAhead)

        let t1 = t0 + .milliseconds(10)
        schedule.receive(.screenLocked(false))
        _ = drain(&schedule, at: t1)
        #expect(schedule.nextDeadline == t0 + timing.quietBeforeDecidingAhead, "armed once per quiet period")
        schedule.wake(at: t0 + timing.quietBeforeDecidingAhead)
        #expect(schedule.nextDeadline == t1 + timing.quietBeforeDecidingAhead, "quiet for 10 ms only: it looks again")

        let now = t1 + timing.quietBeforeDecidingAhead
        var wakes = 0
        while let deadline = schedule.nextDeadline, wakes < 100 {
            #expect(deadline == now, "each kind on the next wake, at once")
            schedule.wake(at: now)
            wakes += 1
        }
        #expect(schedule.engine.firstMovesAreReady)
        #expect(wakes > 1, "one trigger kind per wake, not the whole table in one: \(wakes)")
    }

    @Test("an engine not ready to decide ahead is looked at again every quiet period, and decides at the longest wait")
    func longestWait() throws {
        var (schedule, scene, _, t0) = musicPlaying()
        // The call's commands are never reported back: the engine does not settle.
        schedule.receive(.streamAppeared(scene.makeStream("softphone", role: "phone")))
        _ = drain(&schedule, at: t0)
        let stepAt = t0 + timing.headStartOfFirstMoves
        _ = drain(&schedule, at: stepAt)
        #expect(!schedule.engine.isReadyToDecideAhead)
        var now = try #require(schedule.nextDeadline)
        var looks = 0
        while !schedule.engine.firstMovesAreCurrent, looks < 1000 {
            schedule.wake(at: now)
            looks += 1
            now = try #require(schedule.nextDeadline)
        }
        let decidedAt = now.since(stepAt)
        #expect(decidedAt >= timing.longestWaitToSettle, "not before the longest wait: \(decidedAt)")
        #expect(decidedAt < timing.longestWaitToSettle + timing.quietBeforeDecidingAhead, "nor much after it: \(decidedAt)")
        #expect(looks >= Int(timing.longestWaitToSettle / timing.quietBeforeDecidingAhead), "looked every quiet period: \(looks)")
    }

    @Test("a schedule with nothing to do has no deadline")
    func idle() {
        var (schedule, _, _, t0) = musicPlaying()
        #expect(schedule.nextDeadline == nil)
        #expect(drain(&schedule, at: t0).isEmpty)
    }
}
