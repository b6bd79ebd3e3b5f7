// SPDX-License-Identifier: Apache-2.0
import AudioSessionKit
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// `requestActivation(options:)` and ``AudioSession/activationGrants()`` against a real bridge: a call
/// keeps the request waiting; the grant arrives as the call ends.
///
/// Nothing here waits on a clock. The bridge sends what the end of a call causes (the grant, the end of
/// an interruption) in the step that ends it, before it answers any later call; so a property read
/// made after `setActive(false)` returns comes after those signals on the app's connection, and they
/// are already in the app's streams. The app's session then goes, which ends its streams: what they
/// held is what the bridge sent.
@Suite("Waiting for a turn in AudioSessionKit", .serialized, .threadOfItsOwn)
struct WaitingTurnKitTests {
    /// A bridge with a call active and a podcast app whose request waits for its turn.
    final class Rig {
        let server: SoundServer
        let daemon: BridgeDaemon
        let call: AudioSession
        /// The podcast app's session, until ``podcastAppQuits()``.
        private(set) var podcasts: AudioSession!
        let grants: AsyncStream<Void>
        let interruptions: AsyncStream<AudioSession.Interruption>

        init(_ kind: SoundServerKind) async throws {
            server = try SoundServer(kind)
            daemon = try BridgeDaemon(server: server)
            call = AudioSession(busAddress: server.busAddress!, appID: "call")
            try call.setCategory(.playAndRecord, mode: .voiceChat, options: [])
            try call.setActive(true)
            podcasts = AudioSession(busAddress: server.busAddress!, appID: "podcasts")
            try podcasts.setCategory(.playback, mode: .spokenAudio, options: [])
            grants = podcasts.activationGrants()
            interruptions = podcasts.interruptions()
            #expect(try await podcasts.requestActivation() == .waiting)
        }

        func stop() {
            daemon.terminate()
            server.stop()
        }

        /// Ends the call, then reads the podcast app's session (after what the call's end sent it).
        func endCall() throws {
            try call.setActive(false)
            try podcasts.refreshProperties()
        }

        /// The podcast app's session goes; what its streams held: the grants and the interruptions.
        func podcastAppQuits() async -> (grants: Int, interruptions: [AudioSession.InterruptionType]) {
            podcasts = nil
            var granted = 0
            for await _ in grants { granted += 1 }
            var types: [AudioSession.InterruptionType] = []
            for await interruption in interruptions { types.append(interruption.type) }
            return (granted, types)
        }
    }

    @Test("during a call a request waits, and the grant comes as an async sequence when the call ends",
          arguments: SoundServerKind.underTest([.pulseaudio]))
    func waitsAndIsGranted(kind: SoundServerKind) async throws {
        let rig = try await Rig(kind)
        defer { rig.stop() }
        try rig.podcasts.refreshProperties()
        #expect(rig.podcasts.activationState == .waiting)
        try rig.endCall()
        #expect(rig.podcasts.activationState == .active)
        #expect(try await rig.podcasts.requestActivation() == .active)
        let heard = await rig.podcastAppQuits()
        #expect(heard.grants == 1)
        #expect(heard.interruptions.isEmpty)
    }

    @Test("a request still waiting when the bridge restarts is made again, and granted",
          arguments: SoundServerKind.underTest([.pulseaudio]))
    func waitingSurvivesARestart(kind: SoundServerKind) async throws {
        let rig = try await Rig(kind)
        defer { rig.stop() }
        rig.daemon.kill9()
        try rig.daemon.restart()
        // The library makes both sessions again, each as its bridge comes back, in either order.
        try waitUntil("the call's session made again, active") {
            (try? rig.call.refreshProperties()) != nil && rig.call.activationState == .active
        }
        try rig.endCall()
        let stateAfterCall = rig.podcasts.activationState
        let heard = await rig.podcastAppQuits()
        // Either way the request was granted once. Made again before the call (the more common order
        // here), it was granted at once and the call then interrupted it, as a newer call interrupts
        // any podcast; made again after the call, it waited and was granted as the call ended.
        #expect(heard.grants == 1)
        if heard.interruptions.isEmpty {
            #expect(stateAfterCall == .active)
        } else {
            #expect(heard.interruptions.first == .began)
            #expect(stateAfterCall != .waiting)
        }
    }
}
