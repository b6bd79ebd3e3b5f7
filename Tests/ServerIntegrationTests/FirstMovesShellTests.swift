// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionDaemon
import AudioSessionModel
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// The shell's share of deciding ahead (DESIGN §3): a call's first moves leave for the server before
/// the engine's full step for the call's stream, and the step does not send them again.
@Suite("First moves sent ahead, on real servers", .serialized, .threadOfItsOwn)
struct FirstMovesShellTests {
    @Test("a call's first moves go out before the engine's step for it, once each, and the music is muted",
          arguments: SoundServerKind.underTest)
    func sentAhead(kind: SoundServerKind) throws {
        let bridge = try BridgeUnderTest(kind, engine: PolicyEngine(policies: DefaultPolicies.set))
        defer { bridge.stop() }
        let order = Recorder<String>()
        bridge.onLoop { core in
            var started: Set<StreamID> = []
            core.observeEvents { event in
                // Where the step for the call's stream starts: PipeWire 0.3 reports it paused, then playing;
                // pipewire-pulse may announce it before its levels, and the engine takes it at the next report.
                if case .streamAppeared(let info) = event, !info.corked, !info.levelsNotYetKnown {
                    started.insert(info.id)
                    order.append("started \(info.app.name)")
                }
                if case .streamChanged(let info) = event, !info.corked, !started.contains(info.id) {
                    started.insert(info.id)
                    order.append("started \(info.app.name)")
                }
            }
            core.writeJournal { action in
                if case .journalWrite(let entry) = action { order.append("journal written \(entry.stream)") }
            }
            core.observeActions { action in
                switch action {
                case .setStreamMute(let id, let mute, _): order.append("mute \(id) \(mute)")
                case .setStreamVolume(let id, _, _): order.append("volume \(id)")
                case .journalWrite(let entry): order.append("journal \(entry.stream)")
                default: break
                }
            }
        }
        _ = try bridge.server.play(app: "Music", role: "music")
        let music = try bridge.stream(of: "Music")
        try waitUntil("the engine to decide ahead") { bridge.engine.firstMovesAreReady }
        _ = try bridge.server.play(app: "Phone", role: "phone")
        try waitUntil("the call to mute the music") { try bridge.server.reportedStream(index: music.index)?.mute == true }
        let seen = order.items
        let appeared = try #require(seen.firstIndex(of: "started Phone"), "\(seen)")
        let firstStep = try #require(seen.firstIndex(of: "volume \(music)"), "\(seen)")
        #expect(seen.firstIndex(of: "journal written \(music)") ?? .max < firstStep,
                "the journal is written before the observers hear of the first step: \(seen)")
        #expect(seen.firstIndex(of: "journal \(music)") ?? .max < firstStep, "and they hear of the entry first: \(seen)")
        #expect(firstStep < appeared, "the fade's first step leaves before the step: \(seen)")
        #expect(seen.filter { $0 == "journal \(music)" }.count == 1, "the journal entry is written once: \(seen)")
        #expect(seen.filter { $0 == "mute \(music) true" }.count == 1, "\(seen)")
        #expect(bridge.engine.userLevels(of: music)?.mute == false, "the bridge's mute is not taken for the user's")
    }
    @Test("the bridge's stop is not held behind a call's first moves: it undoes them at once",
          arguments: SoundServerKind.underTest)
    func stopDuringHeadStart(kind: SoundServerKind) throws {
        let bridge = try BridgeUnderTest(kind, engine: PolicyEngine(policies: DefaultPolicies.set))
        defer { bridge.stop() }
        _ = try bridge.server.play(app: "Music", role: "music")
        let music = try bridge.stream(of: "Music")
        try waitUntil("the engine to decide ahead") { bridge.engine.firstMovesAreReady }
        let order = Recorder<String>()
        bridge.onLoop { core in
            var stopping = false
            core.observeActions { action in
                guard case .setStreamVolume(let id, _, _) = action, id == music else { return }
                order.append("volume")
                // The first move for the music: the stop comes while the call's step has its head start.
                guard !stopping else { return }
                stopping = true
                core.loop.perform {
                    order.append("stop")
                    core.send(.shutdown)
                    order.append("stop handled")
                }
            }
        }
        _ = try bridge.server.play(app: "Phone", role: "phone")
        try waitUntil("the stop to be handled") { order.items.contains("stop handled") }
        let seen = order.items
        let stop = try #require(seen.firstIndex(of: "stop"))
        #expect(seen[stop...].dropFirst().first == "volume", "the music's level is put back within the stop: \(seen)")
        try waitUntil("the music at the user's level") {
            try bridge.server.reportedStream(index: music.index).map { !$0.mute && $0.volume.values.allSatisfy { $0 >= 0x10000 } } == true
        }
    }
}
