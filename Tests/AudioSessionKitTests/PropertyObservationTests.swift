// SPDX-License-Identifier: Apache-2.0
import AudioSessionKit
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// Collects what the library hands to an observer (on its notification queue).
final class Collected<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Value] = []
    var values: [Value] { lock.withLock { items } }
    func append(_ value: Value) { lock.withLock { items.append(value) } }
}

/// The names of the properties whose change notifications a session posted.
func observeChangedProperties(of session: AudioSession) -> (Collected<String>, NSObjectProtocol) {
    let named = Collected<String>()
    let observer = NotificationCenter.default.addObserver(forName: AudioSession.propertyDidChangeNotification,
                                                          object: session, queue: nil) { note in
        if let name = note.userInfo?[AudioSessionPropertyNameKey] as? String { named.append(name) }
    }
    return (named, observer)
}

/// Takes values from a property stream until one satisfies `done`. Called only once the property's
/// notification was seen: the library yields to the streams in the same turn as it posts, so the value
/// is buffered or about to be, and this never waits on another task to be scheduled.
func take<Value>(_ iterator: inout AsyncStream<Value>.Iterator, until done: (Value) -> Bool) async -> [Value] {
    var seen: [Value] = []
    while let value = await iterator.next() {
        seen.append(value)
        if done(value) { break }
    }
    return seen
}

/// The session's properties on a real server: served from what the bridge published, observed as
/// PropertiesChanged turns into notifications and streams, and the input words (available inputs,
/// preferred input, input gain) acting on the server.
@Suite("Properties and their observation", .serialized, .threadOfItsOwn)
struct PropertyObservationTests {
    @Test("inputs, preferred input and input gain act on the server and are observed", arguments: SoundServerKind.underTest)
    func inputsAndGain(kind: SoundServerKind) async throws {
        let bridged = try BridgedServer(kind)
        defer { bridged.stop() }
        let server = bridged.server
        let session = AudioSession(busAddress: server.busAddress!, appID: "recorder")
        try session.setCategory(.record, mode: .default, options: [])

        // Not active yet: the gain cannot be set, and says why.
        #expect(!session.isInputGainSettable)
        do { try session.setInputGain(0.5) } catch let error as AudioSessionError { #expect(error.code == .sessionNotActive) }
        try session.setActive(true)

        _ = try server.plug(.usbHeadset)
        try waitUntil("the USB microphone among the inputs") {
            session.availableInputs?.contains { $0.uid.hasPrefix("usb_headset_mic") } == true
        }
        #expect(session.isInputAvailable)
        let (named, observer) = observeChangedProperties(of: session)
        defer { NotificationCenter.default.removeObserver(observer) }
        var routes = session.changes(of: \.currentRoute).makeAsyncIterator()
        let usb = try #require(session.availableInputs?.first { $0.uid.hasPrefix("usb_headset_mic") })
        try session.setPreferredInput(usb)
        #expect(session.preferredInput?.uid == usb.uid, "read back at once after the call")
        try waitUntil("the route's input to be the USB microphone, notified") {
            session.currentRoute.inputs.first?.uid == usb.uid && named.values.contains("currentRoute")
        }
        let seenRoutes = await take(&routes) { $0.inputs.first?.uid == usb.uid }
        #expect(seenRoutes.last?.inputs.first?.portName == usb.portName)

        // The gain is the route input's volume on the server, and observers hear it.
        var gains = session.changes(of: \.inputGain).makeAsyncIterator()
        try waitUntil("the gain to be settable") { session.isInputGainSettable }
        // The recorder records: PipeWire 1.4 drops a volume set on a suspended null source (pactl's
        // own too), so the gain is set once the microphone runs.
        try server.play(app: "recorder", properties: ["audiosession.token": session.streamToken ?? ""], record: true)
        try waitUntil("the USB microphone to run") {
            try server.pactl(["list", "short", "sources"]).split(separator: "\n")
                .contains { $0.contains("\tusb_headset_mic\t") && $0.hasSuffix("RUNNING") }
        }
        // Right after the bridge moved the recording to the USB microphone, pipewire-pulse may report it
        // a moment on the built-in one, and the route follows (README, Limits): the gain is set once the
        // bridge has taken those reports in and its route is the USB microphone.
        ProcessFigures(pid: bridged.daemon.process.pid).waitUntilQuiet()
        try waitUntil("the route's input to be the USB microphone") { session.currentRoute.inputs.first?.uid == usb.uid }
        try session.setInputGain(0.5)
        try bridged.waitUntil("the USB microphone at 50 % on the server") {
            try server.pactl(["get-source-volume", "usb_headset_mic"]).contains("32768")
        }
        try waitUntil("the gain read and notified") { session.inputGain == 0.5 && named.values.contains("inputGain") }
        #expect(await take(&gains) { $0 == 0.5 }.last == 0.5)
    }

    @Test("reads answer from the published values, even while the bridge cannot answer", arguments: SoundServerKind.underTest)
    func readsFromCache(kind: SoundServerKind) async throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let daemon = try BridgeDaemon(server: server)
        defer { daemon.terminate() }
        let session = AudioSession(busAddress: server.busAddress!, appID: "volume-watcher")
        try session.setCategory(.playback, mode: .default, options: [])
        try session.setActive(true)
        let (named, observer) = observeChangedProperties(of: session)
        defer { NotificationCenter.default.removeObserver(observer) }
        var volumes = session.changes(of: \.outputVolume).makeAsyncIterator()
        try server.pactl(["set-sink-volume", "speaker", "\(0x4000)"])
        try waitUntil("the output volume at 25 %, notified") { session.outputVolume == 0.25 && named.values.contains("outputVolume") }
        #expect(await take(&volumes) { $0 == 0.25 }.last == 0.25)
        // A stopped bridge answers nothing; a read that asked it would wait for the call's timeout
        // and then have nothing to give. The value is there at once.
        kill(daemon.process.pid, SIGSTOP)
        defer { kill(daemon.process.pid, SIGCONT) }
        #expect(session.outputVolume == 0.25)
        #expect(session.currentRoute.outputs.first?.portName == "Speaker")
        kill(daemon.process.pid, SIGCONT)
        // Asking the bridge outright throws when it is gone.
        _ = daemon.terminate()
        try waitUntil("refreshProperties to throw MediaServicesFailed") {
            do { try session.refreshProperties(); return false } catch let error as AudioSessionError {
                return error.code == .mediaServicesFailed
            }
        }
    }

    @Test("a key path that is not the bridge's ends its stream at once")
    func localKeyPath() async {
        let session = AudioSession(busAddress: "unix:path=/nonexistent/bus", appID: "local")
        var iterator = session.changes(of: \.category).makeAsyncIterator()
        #expect(await iterator.next() == nil)
    }
}
