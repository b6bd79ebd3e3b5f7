// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
@testable import AudioSessionDaemon
import AudioSessionModel
import AudioTestHarness
import Foundation
import PulseAudioClient
import ServerTestTraits
import Testing

/// Levels a user sets around a duck (DESIGN §3, "Order, not timing"), with the report of the user's
/// level made to arrive after the bridge's command: the adapter's question about the change is held,
/// then sent on the same loop turn as the engine step that sends the command, just before it. The
/// answer reaches the engine after the command; the order of the query and the command says whose
/// level it is.
@Suite("Levels set around a duck, their report after the bridge's command", .serialized, .threadOfItsOwn)
struct LevelsAroundADuckTests {
    static let first: UInt32 = 0xB000

    /// Music at `first`, seen by the engine, in a session of its own, and a navigation session that
    /// ducks others, not active yet.
    func musicAndNavigation(_ bridge: BridgeUnderTest) throws -> (music: StreamID, navigation: SessionID) {
        _ = bridge.createSession(app: "music", token: "music-token", .playback)
        try bridge.server.play(app: "music", properties: ["audiosession.token": "music-token"])
        let id = try bridge.stream(of: "music")
        try bridge.server.pactl(["set-sink-input-volume", "\(id.index)", "\(Self.first)"])
        try waitUntil("the engine to see the user's volume") { bridge.engine.userLevels(of: id)?.volume.values == [Self.first, Self.first] }
        return (id, bridge.createSession(app: "navigation", token: "nav-token", .playback, options: .duckOthers))
    }

    /// The user sets `value` while the bridge's question about it is held, then the question goes out
    /// and, on the same loop turn, `event` is stepped.
    /// With `clientConnecting`, a new client's answer is out as the question is let go (one that
    /// connected as the user set the level: pactl's own, on a slow machine).
    func userSets(_ value: UInt32, on id: StreamID, _ bridge: BridgeUnderTest, thenStep event: PolicyEvent,
                  clientConnecting: Bool = false) throws {
        bridge.onLoop { $0.adapter.holdsChangeQueries = true }
        try bridge.server.pactl(["set-sink-input-volume", "\(id.index)", "\(value)"])
        // The question held must be the stream's, asked after the server has the level: a change of
        // another object (on pipewire-pulse, pactl's client changes as it connects) can be held first,
        // and the stream's event read only after the step; so can a change of the stream the server
        // announced before the level.
        try waitUntil("the server's report of the user's change to wait") {
            try volume(bridge, id) == both(value) && bridge.onLoop { $0.adapter.holdsChange(of: .sinkInput, id.index) }
        }
        bridge.onLoop { core in
            if clientConnecting { core.adapter.changed(PulseChange(facility: .client, kind: .new, index: Self.unknownClient)) }
            core.adapter.holdsChangeQueries = false  // the question leaves now
            core.send(event)  // and the command after it
        }
    }

    /// A client index no server has given out here; the question about it is answered with an error.
    static let unknownClient: UInt32 = 0x7FFF_FFF0

    func volume(_ bridge: BridgeUnderTest, _ id: StreamID) throws -> [String: UInt32]? {
        try bridge.server.reportedStream(index: id.index)?.volume
    }

    func both(_ value: UInt32) -> [String: UInt32] { ["front-left": value, "front-right": value] }

    @Test("a level set just before a duck keeps the duck, and is the level restored after it", arguments: SoundServerKind.underTest)
    func setJustBefore(kind: SoundServerKind) throws {
        let bridge = try BridgeUnderTest(kind)
        defer { bridge.stop() }
        let (id, navigation) = try musicAndNavigation(bridge)
        let user: UInt32 = 0x8000
        try userSets(user, on: id, bridge, thenStep: .setActive(RequestID(0), navigation, caller: BridgeUnderTest.owner, true, []))
        try waitUntil("the duck to stand on the user's level (\(String(describing: try? volume(bridge, id))))") {
            try volume(bridge, id) == both(user / 5)
        }
        #expect(bridge.engine.userLevels(of: id)?.volume.values == [user, user])
        bridge.setActive(navigation, false)
        try waitUntil("the user's level back (\(String(describing: try? volume(bridge, id))))") { try volume(bridge, id) == both(user) }
        try waitUntil("the journal to be clear") { bridge.engine.streamsWithEffects.isEmpty }
    }

    @Test("a level set during a duck is kept, and not overruled when the duck ends", arguments: SoundServerKind.underTest)
    func setDuring(kind: SoundServerKind) throws {
        try levelSetDuringADuck(kind, clientConnecting: false)
    }

    @Test("a level set during a duck is kept when a new client's answer is out as the duck ends: a client holds no question",
          arguments: SoundServerKind.underTest)
    func setDuringAsAClientConnects(kind: SoundServerKind) throws {
        try levelSetDuringADuck(kind, clientConnecting: true)
    }

    func levelSetDuringADuck(_ kind: SoundServerKind, clientConnecting: Bool) throws {
        let bridge = try BridgeUnderTest(kind)
        defer { bridge.stop() }
        let (id, navigation) = try musicAndNavigation(bridge)
        bridge.setActive(navigation, true)
        try waitUntil("the duck") { try volume(bridge, id) == both(Self.first / 5) }
        let user: UInt32 = 0x3000
        try userSets(user, on: id, bridge, thenStep: .setActive(RequestID(0), navigation, caller: BridgeUnderTest.owner, false, []),
                     clientConnecting: clientConnecting)
        try waitUntil("the user's level to stand (\(String(describing: try? volume(bridge, id))))") {
            try volume(bridge, id) == both(user) && bridge.engine.streamsWithEffects.isEmpty
        }
        #expect(bridge.engine.userLevels(of: id)?.volume.values == [user, user])
        // Nothing the bridge had in flight moves it afterwards: once every command is reported back, the
        // server still has the user's level.
        try waitUntil("every command of the bridge's reported back") { !bridge.engine.awaitsReports }
        #expect(try volume(bridge, id) == both(user))
    }
}
