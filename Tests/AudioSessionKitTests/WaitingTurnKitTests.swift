// SPDX-License-Identifier: Apache-2.0
import AudioSessionKit
import AudioTestHarness
import Foundation
import Testing

/// `requestActivation(options:)` and ``AudioSession/activationGrants()`` against a real bridge: a call
/// keeps the request waiting; the grant arrives as the call ends.
@Suite("Waiting for a turn in AudioSessionKit", .serialized)
struct WaitingTurnKitTests {
    @Test("during a call a request waits, and the grant comes as an async sequence when the call ends",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.underTest([.pulseaudio]))
    func waitsAndIsGranted(kind: SoundServerKind) async throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let daemon = try BridgeDaemon(server: server)
        defer { daemon.terminate() }
        let call = AudioSession(busAddress: server.busAddress!, appID: "call")
        try call.setCategory(.playAndRecord, mode: .voiceChat, options: [])
        try call.setActive(true)
        let podcasts = AudioSession(busAddress: server.busAddress!, appID: "podcasts")
        try podcasts.setCategory(.playback, mode: .spokenAudio, options: [])
        let grants = podcasts.activationGrants()
        #expect(try await podcasts.requestActivation() == .waiting)
        try podcasts.refreshProperties()
        #expect(podcasts.activationState == .waiting)
        try call.setActive(false)
        var iterator = grants.makeAsyncIterator()
        #expect(await iterator.next() != nil)
        try podcasts.refreshProperties()
        #expect(podcasts.activationState == .active)
        #expect(try await podcasts.requestActivation() == .active)
    }

    @Test("a request still waiting when the bridge restarts is made again, and granted",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.underTest([.pulseaudio]))
    func waitingSurvivesARestart(kind: SoundServerKind) async throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let daemon = try BridgeDaemon(server: server)
        defer { daemon.terminate() }
        let call = AudioSession(busAddress: server.busAddress!, appID: "call")
        try call.setCategory(.playAndRecord, mode: .voiceChat, options: [])
        try call.setActive(true)
        let podcasts = AudioSession(busAddress: server.busAddress!, appID: "podcasts")
        try podcasts.setCategory(.playback, mode: .spokenAudio, options: [])
        let grants = podcasts.activationGrants()
        #expect(try await podcasts.requestActivation() == .waiting)
        daemon.kill9()
        try daemon.restart()
        // Both sessions are made again by the library, in either order; once the call is back and ends,
        // the request has been granted, whichever came first.
        try waitUntil("the call's session made again, active") { (try? call.refreshProperties()) != nil && call.activationState == .active }
        try call.setActive(false)
        var iterator = grants.makeAsyncIterator()
        #expect(await iterator.next() != nil)
        try podcasts.refreshProperties()
        #expect(podcasts.activationState == .active)
    }
}
