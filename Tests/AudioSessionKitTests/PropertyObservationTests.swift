import AudioSessionKit
import AudioTestHarness
import Foundation
import Testing

/// Collects what a stream of property values yields.
final class Collected<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Value] = []
    var values: [Value] { lock.withLock { items } }
    func append(_ value: Value) { lock.withLock { items.append(value) } }
}

/// The session's properties on a real server: served from what the bridge published, observed as
/// PropertiesChanged turns into notifications and streams, and the input words (available inputs,
/// preferred input, input gain) acting on the server.
@Suite("Properties and their observation", .serialized)
struct PropertyObservationTests {
    @Test("inputs, preferred input and input gain act on the server and are observed", arguments: SoundServerKind.allCases)
    func inputsAndGain(kind: SoundServerKind) async throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let daemon = try BridgeDaemon(server: server)
        defer { daemon.terminate() }
        let session = AudioSession(busAddress: server.busAddress!, appID: "recorder")
        try session.setCategory(.record, mode: .default, options: [])

        // Not active yet: the gain cannot be set, and says why.
        #expect(!session.isInputGainSettable)
        #expect(throws: AudioSessionError.self) { try session.setInputGain(0.5) }
        do { try session.setInputGain(0.5) } catch let error as AudioSessionError { #expect(error.code == .sessionNotActive) }
        try session.setActive(true)

        _ = try server.plug(.usbHeadset)
        try waitUntil("the USB microphone among the inputs") {
            session.availableInputs?.contains { $0.uid.hasPrefix("usb_headset_mic") } == true
        }
        #expect(session.isInputAvailable)
        let routes = Collected<String>()
        let routeChanges = session.changes(of: \.currentRoute)
        let routeTask = Task { for await route in routeChanges { routes.append(route.inputs.first?.portName ?? "") } }
        defer { routeTask.cancel() }
        let usb = try #require(session.availableInputs?.first { $0.uid.hasPrefix("usb_headset_mic") })
        try session.setPreferredInput(usb)
        try waitUntil("the preferred input") { session.preferredInput?.uid == usb.uid }
        try waitUntil("the route's input to be the USB microphone, observed") {
            session.currentRoute.inputs.first?.uid == usb.uid && routes.values.last == usb.portName
        }

        // The gain is the route input's volume on the server, and observers hear it.
        let gains = Collected<Float>()
        let gainChanges = session.changes(of: \.inputGain)
        let gainTask = Task { for await gain in gainChanges { gains.append(gain) } }
        defer { gainTask.cancel() }
        let named = Collected<String>()
        let observer = NotificationCenter.default.addObserver(forName: AudioSession.propertyDidChangeNotification,
                                                              object: session, queue: nil) { note in
            if let name = note.userInfo?[AudioSessionPropertyNameKey] as? String { named.append(name) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try waitUntil("the gain to be settable") { session.isInputGainSettable }
        // The recorder records: PipeWire 1.4 drops a volume set on a suspended null source (pactl's
        // own too), so the gain is set once the microphone runs.
        try server.play(app: "recorder", properties: ["audiosession.token": session.streamToken ?? ""], record: true)
        try waitUntil("the USB microphone to run") {
            try server.pactl(["list", "short", "sources"]).split(separator: "\n")
                .contains { $0.contains("\tusb_headset_mic\t") && $0.hasSuffix("RUNNING") }
        }
        try session.setInputGain(0.5)
        var reported = ""
        try waitUntil("the USB microphone at 50 % on the server (last: \(reported))") {
            reported = try server.pactl(["get-source-volume", "usb_headset_mic"])
            return reported.contains("32768")
        }
        try waitUntil("the gain observed") { gains.values.last == 0.5 && session.inputGain == 0.5 }
        #expect(named.values.contains("inputGain"))
    }

    @Test("reads answer from the published values, even while the bridge cannot answer", arguments: SoundServerKind.allCases)
    func readsFromCache(kind: SoundServerKind) throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let daemon = try BridgeDaemon(server: server)
        defer { daemon.terminate() }
        let session = AudioSession(busAddress: server.busAddress!, appID: "volume-watcher")
        try session.setCategory(.playback, mode: .default, options: [])
        try session.setActive(true)
        let volumes = Collected<Float>()
        let volumeChanges = session.changes(of: \.outputVolume)
        let task = Task { for await volume in volumeChanges { volumes.append(volume) } }
        defer { task.cancel() }
        try server.pactl(["set-sink-volume", "speaker", "\(0x4000)"])
        try waitUntil("the output volume observed at 25 %") { volumes.values.last == 0.25 }
        #expect(session.outputVolume == 0.25)
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
}
