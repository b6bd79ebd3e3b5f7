// SPDX-License-Identifier: Apache-2.0
import AudioSessionKit
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// The interruption, route-change and secondary-audio handlers of Apple's guide, ported by renaming
/// `AVAudioSession` to `AudioSession` and importing AudioSessionKit (and, on Linux, dropping `@objc`:
/// the handlers are registered with block observers), receive the right values.
final class GuidePlayer: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var log: [String] = []
    private(set) var headphonesConnected = false

    private func note(_ line: String) { lock.withLock { log.append(line) } }
    var entries: [String] { lock.withLock { log } }

    // MARK: The guide's handlers, renamed

    func handleInterruption(notification: Notification) {
        guard let userInfo = notification.userInfo,
            let typeValue = userInfo[AudioSessionInterruptionTypeKey] as? UInt,
            let type = AudioSession.InterruptionType(rawValue: typeValue)
        else { return }
        switch type {
        case .began:
            note("began")
        case .ended:
            guard let optionsValue = userInfo[AudioSessionInterruptionOptionKey] as? UInt else { return }
            let options = AudioSession.InterruptionOptions(rawValue: optionsValue)
            note(options.contains(.shouldResume) ? "ended, should resume" : "ended")
        @unknown default:
            break
        }
    }

    func handleRouteChange(notification: Notification) {
        guard let userInfo = notification.userInfo,
            let reasonValue = userInfo[AudioSessionRouteChangeReasonKey] as? UInt,
            let reason = AudioSession.RouteChangeReason(rawValue: reasonValue)
        else { return }
        switch reason {
        case .newDeviceAvailable:
            // The guide reads AudioSession.sharedInstance(); this test's session is the notification's object.
            headphonesConnected = hasHeadphones(in: (notification.object as? AudioSession)?.currentRoute)
            note("new device, headphones: \(headphonesConnected)")
        case .oldDeviceUnavailable:
            if let previousRoute = userInfo[AudioSessionRouteChangePreviousRouteKey] as? AudioSessionRouteDescription {
                headphonesConnected = hasHeadphones(in: previousRoute)
                note("old device gone, it was headphones: \(headphonesConnected)")
            }
        default:
            note("route: \(reason.rawValue)")
        }
    }

    func hasHeadphones(in routeDescription: AudioSessionRouteDescription?) -> Bool {
        !(routeDescription?.outputs.filter { $0.portType == .headphones }.isEmpty ?? true)
    }

    func handleSecondaryAudio(notification: Notification) {
        guard let userInfo = notification.userInfo,
            let typeValue = userInfo[AudioSessionSilenceSecondaryAudioHintTypeKey] as? UInt,
            let type = AudioSession.SilenceSecondaryAudioHintType(rawValue: typeValue)
        else { return }
        note(type == .begin ? "silence secondary audio" : "play secondary audio")
    }
}

@Suite("AudioSessionKit with the guide's handlers", .serialized, .threadOfItsOwn)
struct GuideHandlersTests {
    @Test("the guide's handlers receive interruptions, route changes and secondary-audio hints",
          arguments: SoundServerKind.underTest)
    func guideHandlers(kind: SoundServerKind) throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let daemon = try BridgeDaemon(server: server)
        defer { daemon.terminate() }
        let session = AudioSession(busAddress: server.busAddress!, appID: "guide-player")
        let player = GuidePlayer()
        let center = NotificationCenter.default
        let observers = [
            center.addObserver(forName: AudioSession.interruptionNotification, object: session, queue: nil) {
                player.handleInterruption(notification: $0)
            },
            center.addObserver(forName: AudioSession.routeChangeNotification, object: session, queue: nil) {
                player.handleRouteChange(notification: $0)
            },
            center.addObserver(forName: AudioSession.silenceSecondaryAudioHintNotification, object: session, queue: nil) {
                player.handleSecondaryAudio(notification: $0)
            },
        ]
        defer { observers.forEach { center.removeObserver($0) } }

        // A game that mixes: it is told when other audio wants it quiet.
        try session.setCategory(.ambient, mode: .default, options: [])
        try session.setActive(true)
        #expect(session.category == .ambient)
        let other = AudioSession(busAddress: server.busAddress!, appID: "other")
        try other.setCategory(.playback, mode: .default, options: [])
        try other.setActive(true)
        try waitUntil("the hint to begin") { player.entries.contains("silence secondary audio") }
        try other.setActive(false)
        try waitUntil("the hint to end") { player.entries.contains("play secondary audio") }

        // Now a music player, interrupted by a call.
        try session.setCategory(.playback, mode: .default, options: [])
        try session.setActive(true)
        let call = AudioSession(busAddress: server.busAddress!, appID: "call")
        try call.setCategory(.playAndRecord, mode: .voiceChat, options: [])
        try call.setActive(true)
        try waitUntil("began") { player.entries.contains("began") }
        try call.setActive(false, options: .notifyOthersOnDeactivation)
        try waitUntil("ended with shouldResume") { player.entries.contains("ended, should resume") }

        // Headphones come and go.
        func routeRecords() -> [String] {
            daemon.records.filter { ["server.default", "route.change", "device.added", "device.removed"].contains($0["event"] as? String ?? "") }
                .map { "\($0["event"] ?? "") \($0["app"] ?? "") \($0["reason"] ?? "") \($0["output"] ?? "") \($0["port"] ?? "")" }
        }
        let modules = try server.plug(.wiredHeadphones)
        try server.setDefaultSink("headphones")
        try waitUntil("a new device (seen: \(player.entries); the bridge: \(routeRecords()))") { player.entries.contains("new device, headphones: true") }
        let info = try server.pactl(["info"])
        #expect(session.currentRoute.outputs.map(\.portType) == [.headphones], "\(info)")
        for module in modules { try server.unloadModule(module) }
        try waitUntil("the old device gone") { player.entries.contains("old device gone, it was headphones: true") }
        #expect(!player.entries.contains { $0.hasPrefix("route: ") && $0 != "route: 3" }, "\(player.entries); the bridge: \(routeRecords())")
    }

    @Test("typed async streams carry the same events, and errors come back with their codes",
          arguments: SoundServerKind.underTest)
    func asyncStreamsAndErrors(kind: SoundServerKind) async throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let daemon = try BridgeDaemon(server: server)
        defer { daemon.terminate() }
        let session = AudioSession(busAddress: server.busAddress!, appID: "streams")
        let interruptions = session.interruptions()
        try session.setCategory(.playback, mode: .default, options: [])
        try session.setActive(true)
        let call = AudioSession(busAddress: server.busAddress!, appID: "call")
        try call.setCategory(.playAndRecord, mode: .voiceChat, options: [])
        try call.setActive(true)
        var iterator = interruptions.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.type == .began && first?.interrupter == "call")
        try call.setActive(false, options: .notifyOthersOnDeactivation)
        let second = await iterator.next()
        #expect(second?.type == .ended && second?.options.contains(.shouldResume) == true)

        do {
            try session.setCategory(.playback, mode: .voiceChat, options: [])
            Issue.record("an incompatible mode was accepted")
        } catch let error as AudioSessionError {
            #expect(error.code == .incompatibleCategory)
        }
        do {
            try session.setActive(true)
            try call.setActive(true)
            try session.setActive(true)
            Issue.record("activation during a call was accepted")
        } catch let error as AudioSessionError {
            #expect(error.code == .insufficientPriority)
        }
    }

    @Test("with no bridge, calls fail with mediaServicesFailed and a clear message")
    func noBridge() throws {
        let server = try SoundServer(.pulseaudio)
        defer { server.stop() }
        let session = AudioSession(busAddress: server.busAddress!, appID: "lonely")
        do {
            try session.setActive(true)
            Issue.record("a call without a bridge succeeded")
        } catch let error as AudioSessionError {
            #expect(error.code == .mediaServicesFailed)
            #expect(error.message.contains("audiosessiond"))
        }
    }
}
