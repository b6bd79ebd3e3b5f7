// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel
import Testing

/// A fade never delays the first audible change: its first step goes out with the decision, already
/// past the starting level, and its last step lands at the fade's end (DESIGN §2, "Cork, duck, silence").
@Suite("Fades start at once")
struct FadeTests {
    static let user: UInt32 = 0xC000

    /// The volumes the engine sets on `stream` among `actions`, in order.
    static func volumes(of stream: StreamID, in actions: [PolicyAction]) -> [UInt32] {
        actions.compactMap { if case .setStreamVolume(stream, let volume, _) = $0 { volume.values.first } else { nil } }
    }

    static func mutes(of stream: StreamID, in actions: [PolicyAction]) -> [Bool] {
        actions.compactMap { if case .setStreamMute(stream, let mute, _) = $0 { mute } else { nil } }
    }

    /// Each row: what starts a fade on a playing music stream, and the fade's length in milliseconds.
    enum Trigger: String, CaseIterable, CustomStringConvertible {
        case callStream = "a phone-role stream (interruption, 30 ms)"
        case callSession = "a voiceChat session (interruption, 30 ms)"
        case navigation = "a navigation prompt (duck, 200 ms)"
        var description: String { rawValue }
        var milliseconds: UInt64 { self == .navigation ? 200 : 30 }
    }

    @Test("the first step is in the same handle call as the decision and already below the starting level",
          arguments: Trigger.allCases)
    func firstStepWithTheDecision(trigger: Trigger) {
        var scene = Scene()
        let song = scene.startStream("Music Player", role: "music")
        scene.settle()
        let decision: PolicyEvent
        switch trigger {
        case .callStream, .navigation:
            decision = .streamAppeared(StreamInfo(
                id: StreamID(.output, 900), app: AppIdentity(name: trigger == .navigation ? "Navigation" : "Phone"),
                role: trigger == .navigation ? nil : "phone", device: scene.speaker))
        case .callSession:
            let call = scene.createSession("call")
            scene.setCategory(call, .playAndRecord, mode: .voiceChat)
            decision = .setActive(RequestID(999), call, caller: scene.owner(of: call), true, [])
        }
        // The one engine step that decides: the first step must be among its actions.
        var engine = scene.engine
        let actions = engine.handle(decision, at: scene.now)
        let steps = Self.volumes(of: song, in: actions)
        #expect(steps.first.map { $0 < Self.user } == true, "first step \(steps) from \(Self.user)")
        #expect(Self.mutes(of: song, in: actions).isEmpty, "the mute waits for the fade's end")
    }

    @Test("the last step lands at the fade's end, and the levels in between fall every step", arguments: Trigger.allCases)
    func lastStepAtTheEnd(trigger: Trigger) {
        var scene = Scene()
        let song = scene.startStream("Music Player", role: "music")
        scene.settle()
        scene.mark()
        switch trigger {
        case .callStream: scene.startStream("Phone", role: "phone")
        case .callSession: _ = scene.activeSession("call", .playAndRecord, mode: .voiceChat)
        case .navigation: scene.startStream("Navigation")
        }
        var seen: [UInt32] = [scene.volume(song)]
        var elapsed: UInt64 = 0
        while elapsed + 1 < trigger.milliseconds {
            scene.advance(1)
            elapsed += 1
            if scene.volume(song) != seen.last { seen.append(scene.volume(song)) }
        }
        #expect(!scene.isMuted(song), "not muted before the fade's end")
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 > $1 }, "falls every step: \(seen)")
        scene.advance(1)
        let atTheEnd = scene.levels(song)
        if trigger == .navigation {
            #expect(atTheEnd.volume.values[0] < seen.last!, "the last step lands at the end: \(seen), then \(atTheEnd)")
        } else {
            #expect(seen.last! > 0, "still heard until the end: \(seen)")
            #expect(atTheEnd.mute, "muted at the fade's end")
            #expect(atTheEnd.volume.values[0] == Self.user, "with the user's volume under the mute")
        }
        scene.settle()
        #expect(scene.levels(song) == atTheEnd, "nothing changes after the fade's end")
    }

    @Test("a call's fade over several streams ends with every mute before the volumes set under them, and no step to silence")
    func mutesFirstAtTheEnd() {
        var scene = Scene()
        let songs = (0..<3).map { _ in scene.startStream("Music Player", role: "music") }
        scene.settle()
        scene.startStream("Phone", role: "phone")
        scene.advance(29)
        #expect(songs.allSatisfy { !scene.isMuted($0) }, "not muted before the fade's end")
        scene.mark()
        scene.advance(1)
        let levels = scene.actions.filter(\.isServerCommand)
        let mutes = levels.indices.filter { if case .setStreamMute(_, true, _) = levels[$0] { true } else { false } }
        let volumes = levels.indices.filter { if case .setStreamVolume = levels[$0] { true } else { false } }
        #expect(mutes.count == songs.count, "\(levels)")
        #expect(volumes.count == songs.count, "one volume each, set under the mute: \(levels)")
        #expect(mutes.max()! < volumes.min()!, "every mute first: \(levels)")
        #expect(songs.allSatisfy { scene.isMuted($0) && scene.levels($0).volume.values[0] == Self.user })
    }

    @Test("an unduck's first step goes out with the decision, above the ducked level")
    func unduckStartsAtOnce() {
        var scene = Scene()
        let song = scene.startStream("Music Player", role: "music")
        let prompt = scene.startStream("Navigation")
        scene.settle()
        let ducked = scene.volume(song)
        #expect(ducked < Self.user)
        var engine = scene.engine
        let actions = engine.handle(.streamVanished(prompt), at: scene.now)
        #expect(Self.volumes(of: song, in: actions).first.map { $0 > ducked } == true)
    }
}
