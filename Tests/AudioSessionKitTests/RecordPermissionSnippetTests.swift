// SPDX-License-Identifier: Apache-2.0
import AudioSessionKit
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// The guide's snippet, renamed: `AVAudioSession.sharedInstance().requestRecordPermission { granted in … }`.
/// This copy compiles as written; the test runs the same code on a session of the test's own bus.
func guideSnippet(_ handle: @escaping @Sendable (Bool) -> Void) {
    AudioSession.sharedInstance().requestRecordPermission { granted in
        if granted {
            handle(true)  // the user granted permission: start recording
        } else {
            handle(false)  // the user denied it: explain why the app needs the microphone
        }
    }
}

final class Answer: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Bool?
    var current: Bool? { lock.withLock { value } }
    func set(_ granted: Bool) { lock.withLock { value = granted } }
}

@Suite("The guide's record-permission snippet", .threadOfItsOwn)
struct RecordPermissionSnippetTests {
    @Test("requestRecordPermission receives the user's answer; recordPermission follows it", arguments: ["allow", "deny"])
    func snippet(mode: String) async throws {
        let server = try SoundServer(.pulseaudio)
        defer { server.stop() }
        let daemon = try BridgeDaemon(server: server)
        defer { daemon.terminate() }
        let notifications = try server.spawn(BridgeDaemon.buildDirectory + "/notification-test-server", [mode])
        try waitUntil("the notification server") { notifications.output.contains("ready") }
        let session = AudioSession(busAddress: server.busAddress!, appID: "voice-memos")
        try session.setCategory(.record, mode: .default, options: [])
        #expect(session.recordPermission == .undetermined)

        let answer = Answer()
        session.requestRecordPermission { granted in
            if granted { answer.set(true) } else { answer.set(false) }
        }
        try waitUntil("the answer") { answer.current != nil }
        #expect(answer.current == (mode == "allow"))
        #expect(session.recordPermission == (mode == "allow" ? .granted : .denied))
        // Decided: the async form answers at once, without asking again.
        #expect(await session.requestRecordPermission() == (mode == "allow"))
        #expect(notifications.output.components(separatedBy: "asked: ").count == 2, "asked once: \(notifications.output)")
    }
}
