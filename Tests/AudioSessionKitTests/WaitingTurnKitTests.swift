// SPDX-License-Identifier: Apache-2.0
import AudioSessionKit
import AudioTestHarness
import Foundation
import Testing

/// `requestActivation(options:)` and ``AudioSession/activationGrants()`` against a real bridge: a call
/// keeps the request waiting; the grant arrives as the call ends.
@Suite("Waiting for a turn in AudioSessionKit", .serialized)
struct WaitingTurnKitTests {
    /// A bridge with a call active and a podcast app whose request waits for its turn.
    struct Rig {
        let server: SoundServer
        let daemon: BridgeDaemon
        let call: AudioSession
        let podcasts: AudioSession
        let grants: AsyncStream<Void>

        init(_ kind: SoundServerKind) async throws {
            server = try SoundServer(kind)
            daemon = try BridgeDaemon(server: server)
            call = AudioSession(busAddress: server.busAddress!, appID: "call")
            try call.setCategory(.playAndRecord, mode: .voiceChat, options: [])
            try call.setActive(true)
            podcasts = AudioSession(busAddress: server.busAddress!, appID: "podcasts")
            try podcasts.setCategory(.playback, mode: .spokenAudio, options: [])
            grants = podcasts.activationGrants()
            #expect(try await podcasts.requestActivation() == .waiting)
        }

        func stop() {
            daemon.terminate()
            server.stop()
        }

        /// Ends the call and waits for the grant; the podcast app's session is then active.
        func endCallAndExpectGrant() async throws {
            try call.setActive(false)
            var iterator = grants.makeAsyncIterator()
            #expect(await iterator.next() != nil)
            try podcasts.refreshProperties()
            #expect(podcasts.activationState == .active)
        }
    }

    @Test("during a call a request waits, and the grant comes as an async sequence when the call ends",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.underTest([.pulseaudio]))
    func waitsAndIsGranted(kind: SoundServerKind) async throws {
        let rig = try await Rig(kind)
        defer { rig.stop() }
        try rig.podcasts.refreshProperties()
        #expect(rig.podcasts.activationState == .waiting)
        try await rig.endCallAndExpectGrant()
        #expect(try await rig.podcasts.requestActivation() == .active)
    }

    @Test("a request still waiting when the bridge restarts is made again, and granted",
          .timeLimit(.minutes(1)), arguments: SoundServerKind.underTest([.pulseaudio]))
    func waitingSurvivesARestart(kind: SoundServerKind) async throws {
        let rig = try await Rig(kind)
        defer { rig.stop() }
        rig.daemon.kill9()
        try rig.daemon.restart()
        // Both sessions are made again by the library, in either order; once the call is back and ends,
        // the request has been granted, whichever came first.
        try waitUntil("the call's session made again, active") {
            (try? rig.call.refreshProperties()) != nil && rig.call.activationState == .active
        }
        try await rig.endCallAndExpectGrant()
    }
}
