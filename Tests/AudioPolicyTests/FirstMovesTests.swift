// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel
import PropertyBased
import Synchronization
import Testing

/// Deciding ahead (DESIGN §3): after every step the engine knows what it would do first if a stream
/// of a trigger kind appeared, and those first moves are the first commands of its full step.
@Suite("First moves decided ahead")
struct FirstMovesTests {
    /// The shipped kinds, with a browser that watches for calls and a chat app that knows a call engine.
    static var policies: [SessionPolicy] {
        var chat = SessionPolicy(name: "chat", configuration: try! SessionConfiguration(category: .ambient),
                                 activation: .firstStream, match: PolicyMatch(applicationNames: ["Chat"]))
        chat.calls = CallDetection(whileRecording: true, engines: ["WEBRTC VoiceEngine"])
        return [chat] + CallDetectionTests.policies.prefix(1) + SoundTests.policies
    }

    /// What the full step of `info`'s appearance (or of `event`) does first, on a copy of the scene's engine.
    func fullStepMoves(_ scene: Scene, _ info: StreamInfo, _ event: PolicyEvent? = nil) -> [PolicyAction] {
        var engine = scene.engine
        return PolicyEngine.firstMoves(in: engine.handle(event ?? .streamAppeared(info), at: scene.now), besides: info.id)
    }

    func expectSameMoves(_ ahead: [PolicyAction], _ full: [PolicyAction], _ comment: Comment? = nil) {
        #expect(ahead.count == full.count && zip(ahead, full).allSatisfy(PolicyEngine.isSameMove), "ahead \(ahead), full \(full)")
    }

    /// Music playing at a user's volume, with the first moves decided.
    func musicPlaying() -> (Scene, song: StreamID) {
        var scene = Scene(policies: Self.policies)
        let song = scene.startStream("Music Player", role: "music", volume: 0xB000)
        scene.settle()
        scene.engine.prepareFirstMoves()
        return (scene, song)
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var app: String
        var role: String?
        var mediaName: String?
        var direction: Direction = .output
        /// What the first moves do to the music: nil when they are not decided ahead.
        var toMusic: String?
        var testDescription: String { name }
    }

    @Test("which new streams have first moves, and what they do to music", arguments: [
        Row(name: "a phone-role stream of an app no rule names", app: "softphone", role: "phone", toMusic: "journal, fade"),
        Row(name: "a call app's stream", app: "Phone", toMusic: "journal, fade"),
        Row(name: "a call app's microphone", app: "Phone", direction: .input, toMusic: "journal, fade"),
        Row(name: "a stream that ducks others", app: "Navigation", toMusic: "journal, fade"),
        Row(name: "a call engine's stream in a chat app", app: "Chat", mediaName: "WEBRTC VoiceEngine", toMusic: "journal, fade"),
        Row(name: "a chat app's other stream is not decided ahead", app: "Chat", toMusic: nil),
        Row(name: "a media player is not decided ahead", app: "Music Player", role: "music", toMusic: nil),
        Row(name: "an app no policy takes is not decided ahead", app: "tool", toMusic: nil),
    ])
    func table(row: Row) {
        var (scene, song) = musicPlaying()
        let info = scene.makeStream(row.app, role: row.role, direction: row.direction, mediaName: row.mediaName)
        let ahead = scene.engine.firstMoves(for: .streamAppeared(info))
        #expect(ahead.map(describe) == row.toMusic.map { $0.isEmpty ? [] : $0.components(separatedBy: ", ") })
        if let ahead {
            #expect(ahead.allSatisfy { touches($0) == song })
            expectSameMoves(ahead, fullStepMoves(scene, info))
        }
    }

    @Test("a call announced before its levels are known starts with its first moves at once")
    func announcedBeforeItsLevels() throws {
        var (scene, _) = musicPlaying()
        var info = scene.makeStream("softphone", role: "phone", volume: 0)
        info.levelsNotYetKnown = true
        let ahead = try #require(scene.engine.firstMoves(for: .streamAppeared(info)))
        #expect(!ahead.isEmpty)
        expectSameMoves(ahead, fullStepMoves(scene, info, .streamAppeared(info)))
    }

    func describe(_ moves: [PolicyAction]) -> [String] {
        moves.map {
            switch $0 {
            case .journalWrite: "journal"
            case .setStreamMute(_, let mute, _): mute ? "mute" : "unmute"
            case .setStreamVolume: "fade"
            default: "other"
            }
        }
    }

    func touches(_ move: PolicyAction) -> StreamID? {
        switch move {
        case .setStreamMute(let id, _, _), .setStreamVolume(let id, _, _), .journalClear(let id): id
        case .journalWrite(let entry): entry.stream
        default: nil
        }
    }

    @Test("a stream that joins a session there is decided in full: its app's, its token's, or after any step")
    func notAhead() {
        var (scene, _) = musicPlaying()
        let phone = scene.startStream("Phone")
        scene.engine.prepareFirstMoves()
        #expect(scene.engine.firstMoves(for: .streamAppeared(scene.makeStream("Phone"))) == nil, "the app has its session")
        let explicit = scene.createSession("softphone")
        scene.engine.prepareFirstMoves()
        #expect(scene.engine.firstMoves(for: .streamAppeared(scene.makeStream("softphone", in: explicit, role: "phone"))) == nil, "a token")
        #expect(scene.engine.firstMoves(for: .streamAppeared(scene.makeStream("softphone", role: "phone", corked: true))) == nil, "corked")
        #expect(scene.engine.firstMoves(for: .streamAppeared(scene.makeStream("softphone", role: "phone"))) != nil)
        scene.stopStream(phone)
        #expect(scene.engine.firstMoves(for: .streamAppeared(scene.makeStream("softphone", role: "phone"))) == nil, "stale after a step")
    }

    @Test("with more streams than the cap, nothing is decided ahead and the full step decides alone")
    func cappedByStreams() {
        var settings = EngineSettings()
        settings.maxStreamsDecidedAhead = 1
        var scene = Scene(policies: Self.policies, settings: settings)
        scene.startStream("Music Player", role: "music")
        scene.engine.prepareFirstMoves()
        #expect(scene.engine.firstMoves(for: .streamAppeared(scene.makeStream("softphone", role: "phone"))) != nil)
        scene.startStream("Music Player", role: "music")
        scene.engine.prepareFirstMoves()
        #expect(scene.engine.firstMoves(for: .streamAppeared(scene.makeStream("softphone", role: "phone"))) == nil)
    }

    @Test("a stream that appeared paused, as PipeWire 0.3 reports a new stream, has its first moves when it starts")
    func appearedPaused() {
        var (scene, song) = musicPlaying()
        let phone = scene.startStream("softphone", role: "phone", corked: true)
        scene.engine.prepareFirstMoves()
        var playing = scene.serverStreams[phone]!
        playing.corked = false
        let ahead = scene.engine.firstMoves(for: .streamChanged(playing))
        #expect(ahead.map(describe) == ["journal", "fade"])
        #expect(ahead?.allSatisfy { touches($0) == song } == true)
        expectSameMoves(ahead ?? [], fullStepMoves(scene, playing, .streamChanged(playing)))
        var louder = playing
        louder.volume = ChannelVolumes(channels: 2, value: 0x1000)
        louder.corked = true
        #expect(scene.engine.firstMoves(for: .streamChanged(louder)) == nil, "a change that starts nothing")
    }

    @Test("a paused stream's own first moves are decided alone, the same as in the whole table, and no others")
    func pausedStreamsOwnMoves() {
        var (scene, _) = musicPlaying()
        let phone = scene.startStream("softphone", role: "phone", corked: true)
        var playing = scene.serverStreams[phone]!
        playing.corked = false
        var whole = scene.engine
        whole.prepareFirstMoves()
        #expect(scene.engine.mayStartWithFirstMoves(phone))
        scene.engine.prepareFirstMoves(forStarting: [phone])
        #expect(scene.engine.firstMovesAreCurrent && !scene.engine.firstMovesAreReady,
                "not the whole table: it is decided whole once the bridge is quiet")
        let ahead = scene.engine.firstMoves(for: .streamChanged(playing))
        #expect(ahead?.isEmpty == false)
        expectSameMoves(ahead ?? [], whole.firstMoves(for: .streamChanged(playing)) ?? [])
        let navigation = scene.makeStream("Navigation")
        #expect(whole.firstMoves(for: .streamAppeared(navigation)) != nil)
        #expect(scene.engine.firstMoves(for: .streamAppeared(navigation)) == nil, "another kind is decided in full")
    }

    @Test("a screen reader's open stream that speaks again after silence has its duck decided ahead")
    func speaksAgain() {
        var scene = Scene(policies: SoundTests.policies)
        let music = scene.startStream("Music Player", role: "music")
        let speech = scene.startStream("speech-dispatcher")
        scene.settle()
        scene.send(.streamSilent(speech))
        scene.settle()
        #expect(scene.engine.streamsWithEffects.isEmpty, "the music is back while the reader is silent")
        scene.engine.prepareFirstMoves()
        let ahead = scene.engine.firstMoves(for: .streamSounding(speech))
        #expect(ahead.map(describe) == ["journal", "fade"])
        #expect(ahead?.allSatisfy { touches($0) == music } == true)
        expectSameMoves(ahead ?? [], fullStepMoves(scene, scene.serverStreams[speech]!, .streamSounding(speech)))
        #expect(scene.engine.firstMoves(for: .streamSilent(speech)) == nil)
        #expect(scene.engine.firstMovesAreReady && scene.engine.mayStartWithFirstMoves(speech) == false,
                "a silent stream is left to the quiet rule: it stays open between words")
    }

    @Test("over generated states, the first moves equal the first commands of the full step")
    func generatedStates() async {
        let triggers: [(app: String, role: String?, direction: Direction, mediaName: String?)] = [
            ("softphone", "phone", .output, nil), ("Phone", nil, .output, nil), ("Phone", nil, .input, nil),
            ("Navigation", nil, .output, nil), ("Chat", nil, .output, "WEBRTC VoiceEngine"),
            ("Chromium", nil, .output, "WEBRTC VoiceEngine"), ("Music Player", "music", .output, nil),
        ]
        let decided = Counter(), sounding = Counter()
        await propertyCheck(count: 300, input: Gen.int(in: 0...2000).array(of: 1...60)) { codes in
            var scene = Scene(policies: Self.policies)
            var headphones: DeviceID?
            for code in codes { InvariantPropertyTests().step(&scene, code, headphones: &headphones) }
            scene.engine.prepareFirstMoves()
            for trigger in triggers {
                let info = scene.makeStream(trigger.app, role: trigger.role, direction: trigger.direction,
                                            mediaName: trigger.mediaName)
                guard let ahead = scene.engine.firstMoves(for: .streamAppeared(info)) else { continue }
                decided.add(ahead.isEmpty ? 0 : 1)
                expectSameMoves(ahead, fullStepMoves(scene, info), "\(trigger.app) after \(codes)")
            }
            for var info in scene.serverStreams.values.sorted(by: { $0.id < $1.id }) where info.corked {
                info.corked = false
                guard let ahead = scene.engine.firstMoves(for: .streamChanged(info)) else { continue }
                decided.add(ahead.isEmpty ? 0 : 1)
                expectSameMoves(ahead, fullStepMoves(scene, info, .streamChanged(info)), "\(info.app.name) starts after \(codes)")
                var alone = scene.engine
                alone.prepareFirstMoves(forStarting: [info.id])
                expectSameMoves(alone.firstMoves(for: .streamChanged(info)) ?? [], ahead, "its own, decided alone, after \(codes)")
            }
            // A screen reader that spoke and fell silent, in the same state: it speaks again.
            let speech = scene.startStream("speech-dispatcher")
            scene.send(.streamSilent(speech))
            scene.settle()
            scene.engine.prepareFirstMoves()
            if let ahead = scene.engine.firstMoves(for: .streamSounding(speech)) {
                sounding.add(ahead.isEmpty ? 0 : 1)
                expectSameMoves(ahead, fullStepMoves(scene, scene.serverStreams[speech]!, .streamSounding(speech)),
                                "speaks again after \(codes)")
            }
        }
        #expect(decided.count > 500, "most triggers are decided ahead")
        #expect(sounding.count > 100, "and a screen reader speaking again after silence: \(sounding.count)")
        #expect(decided.moving > 100, "and many of them move something")
    }

    @Test("a move sent ahead that the full step did not take is put right, and its report is not taken for the user's")
    func notTakenIsPutRight() {
        var (scene, song) = musicPlaying()
        let user = scene.levels(song)
        let entry = JournalEntry(stream: song, restoreKey: nil, original: user, applied: StreamLevels(volume: user.volume, mute: true))
        // The server applied the mute sent ahead and reports it after the engine's correction is on its way.
        var muted = scene.serverStreams[song]!
        muted.mute = true
        scene.holdReports = true
        scene.send(.firstMovesNotTaken([.journalWrite(entry), .setStreamMute(song, true, why: "ahead")]))
        #expect(scene.actions.contains { if case .setStreamMute(song, false, _) = $0 { true } else { false } })
        #expect(scene.actions.contains { if case .journalClear(song) = $0 { true } else { false } })
        scene.heldReports.insert(.streamChanged(muted), at: 0)
        scene.holdReports = false
        scene.deliverReports()
        scene.settle()
        #expect(scene.levels(song) == user)
        #expect(scene.engine.userLevels(of: song) == user, "the mute sent ahead is the bridge's, not the user's")
        #expect(scene.engine.streamsWithEffects.isEmpty)
    }

    @Test("the whole table waits while a paused stream's own first moves wait for its start")
    func wholeTableWaitsForAPausedStart() {
        var (scene, _) = musicPlaying()
        let phone = scene.startStream("softphone", role: "phone", corked: true)
        scene.settle()
        #expect(scene.engine.isSettled && !scene.engine.firstMovesAreCurrent)
        #expect(scene.engine.isReadyToDecideAhead, "nothing decided since the paused stream came")
        scene.engine.prepareFirstMoves(forStarting: [phone])
        #expect(scene.engine.firstMovesAwaitAStart)
        #expect(!scene.engine.isReadyToDecideAhead, "settled, but the paused stream may start any moment")
        var playing = scene.serverStreams[phone]!
        playing.corked = false
        scene.send(.streamChanged(playing))
        scene.settle()
        #expect(!scene.engine.mayStartWithFirstMoves(phone), "the stream started: its own are not decided alone again")
        #expect(!scene.engine.firstMovesAwaitAStart)
        #expect(scene.engine.isReadyToDecideAhead, "the call's fades are over and reported")
        scene.engine.prepareFirstMoves()
        #expect(scene.engine.firstMovesAreReady && !scene.engine.firstMovesAwaitAStart)
    }

    @Test("the whole table is decided a trigger kind at a time; a kind not yet decided is decided in full, a step starts over")
    func oneKindAtATime() {
        var scene = Scene(policies: Self.policies)
        scene.startStream("Music Player", role: "music", volume: 0xB000)
        scene.settle()
        var whole = scene.engine
        whole.prepareFirstMoves()
        let kinds = whole.firstMoveTable.moves.count
        let starting = [scene.makeStream("softphone", role: "phone"), scene.makeStream("Phone"),
                        scene.makeStream("Phone", direction: .input), scene.makeStream("Navigation"),
                        scene.makeStream("Chat", mediaName: "WEBRTC VoiceEngine")]
        var decidedBefore = 0
        var turns = 0
        while !scene.engine.prepareNextFirstMoves() {
            turns += 1
            #expect(scene.engine.firstMoveTable.moves.count == turns, "one kind per turn")
            #expect(scene.engine.firstMovesAreCurrent && !scene.engine.firstMovesAreReady)
            #expect(scene.engine.isReadyToDecideAhead, "a table under way is no paused stream's: the next turn goes on")
            let decided = starting.filter { scene.engine.firstMoves(for: .streamAppeared($0)) != nil }
            #expect(decided.count >= decidedBefore, "\(turns) turns")
            // One kind decided: the other directions, policies and call engines are still to decide.
            if turns == 1 { #expect(decided.count < starting.count, "a kind not decided yet is decided in full") }
            decidedBefore = decided.count
            for info in decided {
                expectSameMoves(scene.engine.firstMoves(for: .streamAppeared(info)) ?? [],
                                whole.firstMoves(for: .streamAppeared(info)) ?? [])
            }
        }
        #expect(kinds >= 5 && turns + 1 == kinds, "one simulated step per turn")
        #expect(scene.engine.firstMovesAreReady)
        for info in starting {
            expectSameMoves(scene.engine.firstMoves(for: .streamAppeared(info)) ?? [], whole.firstMoves(for: .streamAppeared(info)) ?? [])
        }
        #expect(scene.engine.prepareNextFirstMoves() && scene.engine.firstMoveTable.moves.count == kinds, "decided, it stays so")
        // A step in between makes what was decided stale: the next turn starts the table over.
        let phone = scene.startStream("softphone", role: "phone", corked: true)
        #expect(!scene.engine.firstMovesAreCurrent)
        scene.engine.prepareNextFirstMoves()
        #expect(scene.engine.firstMoveTable.moves.count == 1, "started over")
        // A paused stream's own kind, decided alone, is kept: the whole table goes on from it.
        scene.engine.prepareFirstMoves(forStarting: [phone])
        #expect(scene.engine.firstMovesAwaitAStart)
        scene.engine.prepareNextFirstMoves()
        #expect(scene.engine.firstMoveTable.moves.count == 2 && !scene.engine.firstMovesAwaitAStart)
    }

    @Test("the state is settled for deciding ahead once the fades are over and the server has reported every command")
    func settles() {
        var (scene, _) = musicPlaying()
        #expect(scene.engine.isSettled, "music playing, every level reported")
        scene.holdReports = true
        scene.startStream("softphone", role: "phone")
        #expect(!scene.engine.isSettled, "the call's first fade step is sent, not reported")
        scene.holdReports = false
        scene.deliverReports()
        #expect(!scene.engine.isSettled, "the first step is reported; the fade runs on")
        scene.settle()
        #expect(scene.engine.isSettled, "the fade is over and reported")
        scene.holdReports = true
        scene.startStream("Navigation")
        scene.settle()
        #expect(!scene.engine.isSettled, "the fades are over, but the server has not reported their last steps")
        scene.holdReports = false
        scene.deliverReports()
        #expect(scene.engine.isSettled)
    }
}

/// Counts across property runs.
final class Counter: Sendable {
    private let counts = Mutex((all: 0, moving: 0))
    var count: Int { counts.withLock { $0.all } }
    var moving: Int { counts.withLock { $0.moving } }
    func add(_ moved: Int) { counts.withLock { $0 = ($0.all + 1, $0.moving + moved) } }
}
