// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel
import Testing

/// The server's memory of an app's levels: the app's next stream starts with the user's own levels,
/// whatever the server remembered of the bridge's (DESIGN §2, "Nothing is left behind").
@Suite("The server's memory of an app's levels")
struct ServerMemoryTests {
    static let user = StreamLevels(volume: ChannelVolumes(channels: 2, value: 0xC000), mute: false)
    static let key = "sink-input-by-application-name:Music Player"

    /// A player whose stream ended while a call had it muted; the call has ended since.
    static func playerEndedWhileInterrupted() -> Scene {
        var scene = Scene()
        let song = scene.startStream("Music Player", role: "music")
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        scene.settle()
        #expect(scene.isMuted(song))
        scene.stopStream(song)
        scene.setActive(call, false, notify: true)
        scene.settle()
        return scene
    }

    @Test("a stream that ends muted makes the bridge rewrite the server's memory with the user's levels")
    func memoryRewritten() {
        let scene = Self.playerEndedWhileInterrupted()
        #expect(scene.remembered[Self.key] == Self.user)
    }

    /// Each row: how the server starts the app's next stream, and whether it applies its memory later
    /// (after the first report, as WirePlumber does).
    @Test("the app's next stream gets the user's levels whatever the server starts it with",
          arguments: [(true, false), (false, true), (true, true)])
    func nextStreamGetsTheUserLevels(startsMuted: Bool, memoryArrivesLater: Bool) {
        var scene = Self.playerEndedWhileInterrupted()
        scene.mark()
        let next = scene.startStream("Music Player", role: "music", muted: startsMuted)
        #expect(scene.levels(next) == Self.user)
        if memoryArrivesLater {
            scene.advance(5)
            scene.userSetsMute(next, true)  // WirePlumber's restore-stream, not a person
            #expect(scene.levels(next) == Self.user)
        }
        #expect(scene.actions.contains { if case .setStreamMute(next, false, _) = $0 { true } else { false } })
        scene.settle()
        #expect(scene.levels(next) == Self.user)
        #expect(scene.journal.isEmpty, "nothing the bridge set is left in force")
    }

    @Test("after the window, a change of the next stream's levels is the user's")
    func laterChangesAreTheUsers() {
        var scene = Self.playerEndedWhileInterrupted()
        let next = scene.startStream("Music Player", role: "music", muted: true)
        scene.advance(1500)
        scene.userSetsMute(next, true)
        scene.settle()
        #expect(scene.isMuted(next))
    }

    @Test("a stream that started with the user's levels owes nothing more: a change a moment later is the user's")
    func owedOnlyOnce() {
        var scene = Self.playerEndedWhileInterrupted()
        let next = scene.startStream("Music Player", role: "music")
        scene.stopStream(next)
        let third = scene.startStream("Music Player", role: "music", muted: true)
        scene.settle()
        #expect(scene.isMuted(third), "the bridge never touched the second stream: the memory is the user's")
    }

    /// WirePlumber 0.5 saves a volume only when it differs from the saved one at four decimals of the
    /// linear volume, so after a duck it may give back an earlier level near the duck (PipeWire 1.6 gave
    /// 8245 for a duck at 8192). Each row: the next stream's level against the duck's, and whether it is
    /// the server's memory (the user's level comes back) or someone's choice (it stays).
    @Test("the next stream at a level the server keeps for the duck gets the user's level; a level apart stays",
          arguments: [(Int64(0), true), (53, true), (-40, true), (600, false)])
    func memoryWithinTheServersRounding(offset: Int64, remembered: Bool) {
        var (scene, ducked) = Self.playerEndedDucked()
        let level = UInt32(Int64(ducked) + offset)
        let next = scene.startStream("Music Player", role: "music", volume: level)
        scene.settle()
        #expect(scene.volume(next) == (remembered ? 0xC000 : level))
    }

    /// A player's stream that ended while navigation ducked it (the prompt ended after it), and the duck's volume.
    static func playerEndedDucked() -> (Scene, ducked: UInt32) {
        var scene = Scene()
        let song = scene.startStream("Music Player", role: "music")
        let navigation = scene.startStream("Navigation")
        scene.settle()
        let ducked = scene.volume(song)
        scene.stopStream(song)
        scene.stopStream(navigation)
        scene.settle()
        return (scene, ducked)
    }

    @Test("a ducked stream that ends: the next one starts at the user's volume, not the duck")
    func duckedStreamEnds() {
        var scene = Scene()
        let song = scene.startStream("Music Player", role: "music")
        _ = scene.startStream("Navigation")
        scene.settle()
        let ducked = scene.volume(song)
        #expect(ducked < 0xC000)
        scene.stopStream(song)
        let next = scene.startStream("Music Player", role: "music", volume: ducked)
        scene.settle()
        #expect(scene.engine.streams[next].map { $0.duckCauses.isEmpty } == false, "navigation still ducks it")
        #expect(scene.engine.streams[next]?.user.volume.values == [0xC000, 0xC000])
    }

    /// pipewire-pulse announces a new stream at zero volume before it knows the node's levels, and gives
    /// them in its next report. Each row: the level the next report carries, and whether a call is on
    /// (the stream starts muted, once its levels are known).
    @Test("a stream announced before its levels are known joins at once, and gets commands only once its levels come",
          arguments: [(UInt32(0xC000), false), (0x8000, true), (0, false)])
    func levelsNotYetKnown(reported: UInt32, duringCall: Bool) {
        var scene = Scene()
        if duringCall { _ = scene.activeSession("call", .playAndRecord, mode: .voiceChat) }
        var info = scene.makeStream("Music Player", role: "music", volume: 0)
        info.levelsNotYetKnown = true
        scene.serverStreams[info.id] = info
        scene.mark()
        scene.send(.streamAppeared(info))
        #expect(scene.engine.session(of: info.id) != nil, "it joins its app's session at once")
        #expect(!scene.actions.contains { $0.isServerCommand || $0.isJournal }, "no command at zero volume: \(scene.actions.filter { $0.isServerCommand || $0.isJournal })")
        info.levelsNotYetKnown = false
        info.volume = ChannelVolumes(channels: 2, value: reported)
        scene.serverStreams[info.id] = info
        scene.send(.streamChanged(info))
        scene.settle()
        #expect(scene.engine.streams[info.id]?.user.volume.values == [reported, reported], "the next report's levels are the user's")
        #expect(scene.isMuted(info.id) == duringCall)
        #expect(scene.volume(info.id) == reported)
    }

    @Test("a call announced before its levels are known silences the music at once")
    func callAnnouncedBeforeItsLevels() {
        var scene = Scene()
        let song = scene.startStream("Music Player", role: "music")
        scene.settle()
        var call = scene.makeStream("Softphone", role: "phone", volume: 0)
        call.levelsNotYetKnown = true
        scene.serverStreams[call.id] = call
        scene.send(.streamAppeared(call))
        scene.settle()
        #expect(scene.isMuted(song))
    }

    @Test("after a duck ended, the player's next stream announced at zero volume starts at the user's level, not at zero")
    func nextStreamAnnouncedAtZero() {
        var scene = Scene()
        let song = scene.startStream("Music Player", role: "music")
        let prompt = scene.startStream("Navigation")
        scene.settle()
        scene.stopStream(prompt)
        scene.settle()
        scene.stopStream(song)
        var next = scene.makeStream("Music Player", role: "music", volume: 0)
        next.levelsNotYetKnown = true
        scene.serverStreams[next.id] = next
        scene.send(.streamAppeared(next))
        // The server's next report: its memory of the player, the user's level.
        next.levelsNotYetKnown = false
        next.volume = ChannelVolumes(channels: 2, value: 0xC000)
        scene.serverStreams[next.id] = next
        scene.send(.streamChanged(next))
        scene.settle()
        #expect(scene.levels(next.id) == Self.user)
    }

    /// The journal of a bridge that crashed while the player was ducked, as the next run reads it.
    static func leftover(_ stream: StreamID) -> JournalEntry {
        JournalEntry(stream: stream, restoreKey: key, original: user,
                     applied: StreamLevels(volume: ChannelVolumes(channels: 2, value: 0x2000), mute: false))
    }

    /// Each row: the level the crashed run left the stream at, the duck's or a step of its fade.
    @Test("after a crash, the journal's leftovers are the bridge's own: the stream is put back, and the server's memory of the duck on the next stream is undone",
          arguments: [UInt32(0x2000), 0x6000])
    func leftoversOfALiveStream(leftAt: UInt32) {
        var scene = Scene()
        let song = scene.startStream("Music Player", role: "music", volume: leftAt)
        scene.send(.journalLeftovers([Self.leftover(song)]))
        scene.settle()
        #expect(scene.levels(song) == Self.user)
        scene.stopStream(song)
        #expect(scene.remembered[Self.key] == Self.user)
        let next = scene.startStream("Music Player", role: "music", volume: leftAt)
        scene.settle()
        #expect(scene.levels(next) == Self.user, "the server's memory of the earlier run's duck is undone")
    }

    /// Each row: the level the server gives the app's next streams, the duck's or a step of its fade.
    @Test("the leftovers of a stream gone since rewrite the server's memory; the app's streams started since, and its next one, get the user's levels",
          arguments: [UInt32(0x2000), 0x6000])
    func leftoversOfAStreamGone(remembered: UInt32) {
        var scene = Scene()
        // The app's next stream started while no bridge ran, with what the server remembered.
        let started = scene.startStream("Music Player", role: "music", volume: remembered)
        let chosen = scene.startStream("Music Player", role: "music", volume: 0xE000)
        scene.send(.journalLeftovers([Self.leftover(StreamID(.output, 99))]))
        scene.settle()
        #expect(scene.remembered[Self.key] == Self.user)
        #expect(scene.levels(started) == Self.user)
        #expect(scene.volume(chosen) == 0xE000, "a level out of the earlier run's reach is someone's choice")
        let next = scene.startStream("Music Player", role: "music", volume: remembered)
        scene.settle()
        #expect(scene.levels(next) == Self.user)
    }

    /// The crashed run interrupted the player: its fade's mute reached the server, the volume set back
    /// under the mute did not (the run was killed between the two), and the server remembered the
    /// fade's last step, muted. Each row: that step's volume.
    @Test("after a crash in an interruption's fade, the app's next stream started with a step of the fade, muted, gets the user's levels",
          arguments: [UInt32(0x2000), 0x6000])
    func leftoversOfAnInterruptionsFade(step: UInt32) {
        var scene = Scene()
        let started = scene.startStream("Music Player", role: "music", volume: step, muted: true)
        let leftover = JournalEntry(stream: StreamID(.output, 99), restoreKey: Self.key, original: Self.user,
                                    applied: StreamLevels(volume: Self.user.volume, mute: true))
        scene.send(.journalLeftovers([leftover]))
        scene.settle()
        #expect(scene.levels(started) == Self.user)
        let next = scene.startStream("Music Player", role: "music", volume: step, muted: true)
        scene.settle()
        #expect(scene.levels(next) == Self.user)
    }

    /// Each row: how the next stream starts (muted by the memory or not), and the volume a client sets
    /// on it within its first 100 ms (an app opening its stream at its own level, a person at a mixer).
    @Test("a level anyone sets on the app's next stream in its first second stays; the memory's mute is still undone",
          arguments: [false, true], [UInt32(47_841), 0x4000])
    func clientLevelStays(startsMuted: Bool, clientVolume: UInt32) {
        var scene = Self.playerEndedWhileInterrupted()
        let next = scene.startStream("Music Player", role: "music", muted: startsMuted)
        scene.advance(50)
        scene.userSetsVolume(next, clientVolume)
        scene.advance(50)
        #expect(scene.levels(next) == StreamLevels(volume: ChannelVolumes(channels: 2, value: clientVolume), mute: false))
        // The memory of the bridge's mute arriving after the client's level is still the memory.
        scene.advance(200)
        scene.userSetsMute(next, true)
        scene.settle()
        #expect(scene.levels(next) == StreamLevels(volume: ChannelVolumes(channels: 2, value: clientVolume), mute: false))
        #expect(scene.journal.isEmpty, "nothing the bridge set is left in force")
    }

    /// WirePlumber 0.4 may save a level it read earlier in a burst of changes, and on a loaded machine a
    /// burst is a whole fade: in `make stress` it kept the first step of an unduck that had gone nine
    /// steps further when the stream ended. Each row: which step of the duck's fade down and back up the
    /// server gives the app's next stream.
    @Test("the next stream at any step the bridge set in a duck's fade down and back up gets the user's level",
          arguments: [0, 1, 2, 5, 9])
    func anyStepOfTheFadesIsTheMemory(stepsBeforeTheLast: Int) throws {
        var scene = Scene()
        let song = scene.startStream("Music Player", role: "music")
        scene.mark()
        let navigation = scene.startStream("Navigation")
        scene.advance(15)
        scene.stopStream(navigation)  // the prompt ends while the duck still fades in
        scene.advance(95)  // the unduck fades back up for nine steps or so when the player's stream ends
        let set = scene.actions.compactMap { action -> UInt32? in
            if case .setStreamVolume(song, let volume, _) = action { volume.values[0] } else { nil }
        }
        try #require(set.count > 10, "the fades' steps: \(set)")
        scene.stopStream(song)
        let remembered = set[set.count - 1 - stepsBeforeTheLast]
        let next = scene.startStream("Music Player", role: "music", volume: remembered)
        scene.settle()
        #expect(scene.volume(next) == 0xC000, "started at \(remembered), one of \(set)")
    }

    @Test("a next stream that opens at the app's own volume keeps it: only levels the bridge set are the memory")
    func ownStartingVolumeStays() {
        var scene = Self.playerEndedWhileInterrupted()
        let next = scene.startStream("Music Player", role: "music", volume: 0x8000, muted: true)
        scene.settle()
        #expect(scene.levels(next) == StreamLevels(volume: ChannelVolumes(channels: 2, value: 0x8000), mute: false))
    }

    @Test("a ducked stream that ends: the memory of the duck arriving late is undone, a client's volume before it stays")
    func duckMemoryAfterClientVolume() {
        var (scene, ducked) = Self.playerEndedDucked()
        let next = scene.startStream("Music Player", role: "music")
        scene.advance(30)
        scene.userSetsVolume(next, 0x9000)  // the app's own level
        scene.advance(20)
        #expect(scene.volume(next) == 0x9000)
        scene.advance(100)
        scene.userSetsVolume(next, ducked)  // the server's memory of the duck, late
        scene.advance(20)
        #expect(scene.volume(next) == 0x9000)
        scene.advance(1500)
        scene.userSetsVolume(next, ducked)  // after the window: a person's choice
        scene.settle()
        #expect(scene.volume(next) == ducked)
    }

    /// Each row: whether the call's mute or the duck's volume is in force on the player's stream when
    /// the player opens another (its next track), which the server starts with that level.
    @Test("a stream opened while the bridge has changed another of the app's starts from the user's levels, and gets them back after",
          arguments: [true, false])
    func streamOpenedWhileAnotherIsChanged(duringCall: Bool) {
        var scene = Scene()
        let song = scene.startStream("Music Player", role: "music")
        let cause: SessionID? = duringCall ? scene.activeSession("call", .playAndRecord, mode: .voiceChat) : nil
        let navigation: StreamID? = duringCall ? nil : scene.startStream("Navigation")
        scene.settle()
        let remembered = scene.levels(song)
        #expect(remembered != Self.user, "the bridge changed the song")
        let next = scene.startStream("Music Player", role: "music", volume: remembered.volume.values[0], muted: remembered.mute)
        scene.settle()
        #expect(scene.engine.streams[next]?.user == Self.user, "the server's memory of the bridge's level is not the user's")
        #expect(scene.levels(next) == remembered, "the cause is still in force on the new stream")
        if let cause { scene.setActive(cause, false, notify: true) }
        if let navigation { scene.stopStream(navigation) }
        scene.settle()
        #expect(scene.levels(song) == Self.user)
        #expect(scene.levels(next) == Self.user)
        #expect(scene.journal.isEmpty, "nothing the bridge set is left in force")
    }

    /// Each row: whether the user muted the player's stream after the call gave it back.
    @Test("a stream opened with the bridge's mute after the bridge put another of the app's back is the memory, unless the user muted since",
          arguments: [false, true])
    func streamOpenedAfterAnotherWasPutBack(userMutedSince: Bool) {
        var scene = Scene()
        let song = scene.startStream("Music Player", role: "music")
        let call = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        scene.settle()
        #expect(scene.isMuted(song))
        scene.setActive(call, false, notify: true)
        scene.settle()
        #expect(scene.levels(song) == Self.user, "the call gave the song back")
        if userMutedSince {
            scene.userSetsMute(song, true)
            scene.settle()
        }
        // WirePlumber 0.4 kept the call's mute: the app's next stream starts muted.
        let next = scene.startStream("Music Player", role: "music", muted: true)
        scene.settle()
        #expect(scene.isMuted(next) == userMutedSince)
        #expect(scene.engine.streams[next]?.user.mute == userMutedSince)
        #expect(scene.journal.isEmpty, "nothing the bridge set is left in force")
    }

    @Test("a stream opened muted while the bridge has another of the app's at the user's levels is the user's mute")
    func streamOpenedNextToAnUntouchedOne() {
        var scene = Self.playerEndedWhileInterrupted()
        let song = scene.startStream("Music Player", role: "music")
        scene.settle()
        let next = scene.startStream("Music Player", role: "music", muted: true)
        scene.settle()
        #expect(scene.levels(song) == Self.user)
        #expect(scene.isMuted(next), "nothing the bridge set is in force: the memory is the user's")
    }
}
