// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import Glibc
import PulseAudioClient
import ServerTestTraits
import Testing

@Suite("The libpulse wrapper, on a real server", .serialized, .threadOfItsOwn)
struct PulseContextTests {
    @Test("the subscription is a typed change stream", arguments: SoundServerKind.underTest)
    func subscriptionAsStream(kind: SoundServerKind) async throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let loop = try PulseLoop()
        loop.start()
        defer { loop.stop() }
        let streamBox = Recorder<AsyncStream<PulseChange>>()
        let contextBox = Recorder<PulseContext>()
        let subscribed = Recorder<Bool>()
        loop.perform {
            let context = try! PulseContext(loop: loop, name: "stream-test")
            contextBox.append(context)
            context.onStateChange = { state in
                if state == .ready { context.subscribe { _ in subscribed.append(true) } }
            }
            streamBox.append(context.changes())
            try! context.connect(server: server.address)
        }
        try waitUntil("the subscription") { !subscribed.items.isEmpty }
        let module = try server.addSink(name: "extra", description: "Extra", properties: ["device.form_factor": "speaker"])
        var seen: [PulseChange] = []
        for await change in streamBox.items[0] {
            seen.append(change)
            if change.facility == .sink && change.kind == .new { break }
        }
        #expect(seen.contains { $0.facility == .sink && $0.kind == .new })
        try server.unloadModule(module)
        loop.perform { contextBox.items[0].disconnect() }
    }

    @Test("a stream query that names its keys reads only those properties; without, it reads them all",
          arguments: SoundServerKind.underTest)
    func streamQueryReadsNamedKeys(kind: SoundServerKind) async throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        try server.play(app: "keys-app", role: "music", properties: ["audiosession.token": "t-1"])
        let loop = try PulseLoop()
        loop.start()
        defer { loop.stop() }
        let contextBox = Recorder<PulseContext>()
        let ready = Recorder<Bool>()
        loop.perform {
            let context = try! PulseContext(loop: loop, name: "keys-test")
            contextBox.append(context)
            context.onStateChange = { if $0 == .ready { ready.append(true) } }
            try! context.connect(server: server.address)
        }
        try waitUntil("the connection") { !ready.items.isEmpty }
        let context = contextBox.items[0]
        defer { loop.perform { context.disconnect() } }
        let index = try server.reportedStream(of: "keys-app", timeout: .seconds(20)).index
        func stream(reading keys: [String]?) async throws -> PulseStream? {
            try await withCheckedThrowingContinuation { continuation in
                loop.perform { context.sinkInput(index, reading: keys) { continuation.resume(with: $0) } }
            }
        }
        func listed(reading keys: [String]?) async throws -> PulseStream? {
            try await withCheckedThrowingContinuation { continuation in
                loop.perform { context.sinkInputs(reading: keys) { continuation.resume(with: $0.map { $0.first { $0.index == index } }) } }
            }
        }
        let all = try #require(try await stream(reading: nil))
        #expect(all.properties["application.name"] == "keys-app" && all.properties.count > 3,
                "every property: \(all.properties.keys.sorted())")
        let keys = ["media.role", "audiosession.token", "no.such.key"]
        #expect(try await stream(reading: keys)?.properties == ["media.role": "music", "audiosession.token": "t-1"])
        #expect(try await listed(reading: keys)?.properties == ["media.role": "music", "audiosession.token": "t-1"])
        #expect(try await listed(reading: keys)?.client == all.client, "the rest of the stream is read as ever")
    }

    @Test("killing a sink-input ends another client's stream on the server", arguments: SoundServerKind.underTest)
    func killSinkInputEndsAnotherClientsStream(kind: SoundServerKind) throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        try server.play(app: "killed-app", role: "music")
        let index = try server.reportedStream(of: "killed-app", timeout: .seconds(20)).index
        let loop = try PulseLoop()
        loop.start()
        defer { loop.stop() }
        let answers = Recorder<Bool>()
        let kept = Recorder<PulseContext>()
        _ = try connect(server, on: loop) { context in
            kept.append(context)
            context.killSinkInput(index) { answers.append((try? $0.get()) != nil) }
        }
        try waitUntil("the server to answer the kill") { !answers.items.isEmpty }
        #expect(answers.items == [true])
        try waitUntil("the server to report the stream gone") { try server.reportedStream(index: index) == nil }
        loop.perform { kept.items.forEach { $0.disconnect() } }
    }

    /// A reference that does not keep its object.
    struct Weak<Object: AnyObject>: @unchecked Sendable {
        weak var value: Object?
        init(_ value: Object) { self.value = value }
    }

    /// An object that says when it is gone.
    final class Sentinel: @unchecked Sendable {}

    /// A context connected to `server`, with `ready` run on the loop once it is ready. The test keeps
    /// it until then; after `ready` has made its requests it keeps only a weak reference, so the
    /// context lives as long as those requests keep it.
    func connect(_ server: SoundServer, on loop: PulseLoop, ready: @escaping @Sendable (PulseContext) -> Void) throws -> Recorder<Weak<PulseContext>> {
        let made = Recorder<Weak<PulseContext>>()
        let keeper = Recorder<PulseContext>()
        loop.perform {
            let context = try! PulseContext(loop: loop, name: "request-test")
            made.append(Weak(context))
            keeper.append(context)
            context.onStateChange = { [unowned context] state in
                guard state == .ready else { return }
                ready(context)
                // Let go once this callback of the context's own has returned.
                loop.perform { keeper.clear() }
            }
            try! context.connect(server: server.address)
        }
        try waitUntil("the context to be made") { !made.items.isEmpty }
        return made
    }

    @Test("a request a disconnected context never answers lets go of its completion and the context it holds",
          arguments: SoundServerKind.underTest)
    func unansweredRequestOnDisconnect(kind: SoundServerKind) throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let loop = try PulseLoop()
        loop.start()
        defer { loop.stop() }
        let held = Recorder<Weak<Sentinel>>()
        let answers = Recorder<String>()
        let made = try connect(server, on: loop) { context in
            let sentinel = Sentinel()
            held.append(Weak(sentinel))
            // The completion holds the context, as the bridge's do; the disconnect comes before the answer.
            context.serverInfo { _ in answers.append("answered \(sentinel) \(context)") }
            context.discard()
        }
        try waitUntil("the request to be made") { !held.items.isEmpty }
        try waitUntil("the completion to be let go of") { held.items[0].value == nil }
        try waitUntil("the context to be let go of") { made.items[0].value == nil }
        #expect(answers.items.isEmpty, "a cancelled request is never answered")
    }

    @Test("a request outstanding when the server dies lets go of its completion and the context it holds",
          arguments: SoundServerKind.underTest)
    func unansweredRequestOnServerDeath(kind: SoundServerKind) throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let loop = try PulseLoop()
        loop.start()
        defer { loop.stop() }
        let pid = try #require(server.serverPID)
        let held = Recorder<Weak<Sentinel>>()
        let answers = Recorder<String>()
        let states = Recorder<PulseContext.State>()
        let made = try connect(server, on: loop) { context in
            // A stopped server answers nothing: the request is outstanding when it dies.
            kill(pid, SIGSTOP)
            let sentinel = Sentinel()
            held.append(Weak(sentinel))
            context.serverInfo { _ in answers.append("answered \(sentinel) \(context)") }
            context.onStateChange = { [unowned context] state in
                states.append(state)
                if state.isFinal { context.discard() }
            }
        }
        try waitUntil("the request to be made") { !held.items.isEmpty }
        server.killServer()
        try waitUntil("the connection to fail") { states.items.contains(.failed) }
        try waitUntil("the completion to be let go of") { held.items[0].value == nil }
        try waitUntil("the context to be let go of") { made.items[0].value == nil }
        #expect(answers.items.isEmpty, "a cancelled request is never answered")
    }
}
