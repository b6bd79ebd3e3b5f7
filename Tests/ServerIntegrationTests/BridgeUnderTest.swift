// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionDaemon
import AudioSessionModel
import AudioTestHarness
import Foundation
import PulseAudioClient

/// A private sound server with the bridge's core connected to it, and everything the engine saw and did.
final class BridgeUnderTest: @unchecked Sendable {
    let server: SoundServer
    let loop: PulseLoop
    let core: BridgeCore
    private let events = Recorder<PolicyEvent>()
    private let actions = Recorder<PolicyAction>()

    init(_ kind: SoundServerKind, engine: PolicyEngine = PolicyEngine(),
         sharedMemoryDelay: Duration = ServerAdapter.sharedMemoryDelay) throws {
        server = try SoundServer(kind)
        loop = try PulseLoop()
        core = BridgeCore(loop: loop, server: server.address, engine: engine, sharedMemoryDelay: sharedMemoryDelay)
        loop.start()
        loop.perform { [self] in
            core.observeEvents { [events] in events.append($0) }
            core.observeActions { [actions] in actions.append($0) }
            core.start()
        }
        try waitUntil("the bridge to connect to \(kind)") { isConnected }
    }

    /// Whether the adapter is connected and has read the server.
    var isConnected: Bool { onLoop { $0.adapter.isConnected } }

    /// Stops the core, the loop and the server.
    func stop() {
        loop.perform { [core] in core.stop() }
        loop.stop()
        server.stop()
    }

    deinit { stop() }

    /// Runs `body` on the loop thread with the core.
    func onLoop<T: Sendable>(_ body: @escaping @Sendable (BridgeCore) -> T) -> T {
        let result = Recorder<T>()
        let done = DispatchSemaphore(value: 0)
        loop.perform { [core] in
            result.append(body(core))
            done.signal()
        }
        done.wait()
        return result.items[0]
    }

    /// A copy of the engine's state.
    var engine: PolicyEngine { onLoop { $0.engine } }
    /// A copy of the adapter's cache.
    var cache: ServerCache { onLoop { $0.adapter.cache } }

    func seenEvents() -> [PolicyEvent] { events.items }
    func seenActions() -> [PolicyAction] { actions.items }
    func forget() {
        events.clear()
        actions.clear()
    }

    /// Hands an event to the engine on the loop thread.
    func send(_ event: PolicyEvent) { onLoop { $0.send(event) } }

    /// Waits until the engine knows a device of that name, and returns it.
    func device(named name: String, timeout: Duration = .seconds(10)) throws -> DeviceInfo {
        var found: DeviceInfo?
        try waitUntil("the engine to see device \(name)", timeout: timeout) {
            found = engine.devices.values.first { $0.name == name }
            return found != nil
        }
        return found!
    }

    /// Waits until the engine knows the stream of an app, and returns its id.
    func stream(of app: String, timeout: Duration = .seconds(10)) throws -> StreamID {
        var found: StreamID?
        try waitUntil("the engine to see the stream of \(app)", timeout: timeout) {
            found = engine.streamInfos.values.first { $0.app.name == app }?.id
            return found != nil
        }
        return found!
    }
}

/// A list that several threads append to.
final class Recorder<Item>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Item] = []

    func append(_ item: Item) { lock.withLock { storage.append(item) } }
    func clear() { lock.withLock { storage = [] } }
    var items: [Item] { lock.withLock { storage } }
}

extension BridgeUnderTest {
    static let owner = ":1.test"

    /// Creates an explicit session through the engine, configures it, and returns it.
    func createSession(app: String, token: String, _ category: SessionCategory, mode: SessionMode = .default,
                       options: CategoryOptions = []) -> SessionID {
        let before = Set(engine.sessions.keys)
        send(.createSession(RequestID(0), SessionRequest(owner: Self.owner, ownerPID: nil, appID: app, token: token)))
        let id = Set(engine.sessions.keys).subtracting(before).first!
        let configuration = try! SessionConfiguration(category: category, mode: mode, options: options)
        send(.setConfiguration(RequestID(0), id, caller: Self.owner, configuration))
        return id
    }

    func setActive(_ id: SessionID, _ active: Bool, notify: Bool = false) {
        send(.setActive(RequestID(0), id, caller: Self.owner, active, notify ? .notifyOthersOnDeactivation : []))
    }

    /// The route changes the engine reported for a session since the last ``forget()``.
    func routeChanges(_ id: SessionID) -> [(reason: RouteChangeReason, previous: RouteDescription)] {
        seenActions().compactMap {
            guard case .routeChange(id, let reason, let previous, _) = $0 else { return nil }
            return (reason, previous)
        }
    }
}
