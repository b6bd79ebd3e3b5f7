// SPDX-License-Identifier: Apache-2.0
import AudioSessionDaemon
import AudioTestHarness
import Foundation
import PulseAudioClient

/// A second, independent connection that reads everything from the server, for comparing with the cache.
final class FreshIntrospection: @unchecked Sendable {
    let loop: PulseLoop
    private var context: PulseContext?

    init(address: String) throws {
        loop = try PulseLoop()
        loop.start()
        let ready = DispatchSemaphore(value: 0)
        loop.perform { [self] in
            let context = try! PulseContext(loop: loop, name: "fresh-introspection")
            self.context = context
            context.onStateChange = { if $0 == .ready || $0.isFinal { ready.signal() } }
            try? context.connect(server: address)
        }
        guard ready.wait(timeout: .now() + 10) == .success else { throw HarnessError("could not connect for a fresh read") }
    }

    /// The connection, on the loop's thread.
    var currentContext: PulseContext? { context }

    func close() {
        loop.perform { [self] in
            context?.disconnect()
            context = nil
        }
        loop.stop()
    }

    /// Reads sinks, sources, sink-inputs, source-outputs and cards into a cache-shaped value.
    func read() throws -> ServerCache {
        let result = Recorder<ServerCache>()
        let done = DispatchSemaphore(value: 0)
        loop.perform { [self] in
            guard let context else {
                done.signal()
                return
            }
            var cache = ServerCache()
            context.sinks { r in
                for d in (try? r.get()) ?? [] { cache.sinks[d.index] = d }
                context.sources { r in
                    for d in (try? r.get()) ?? [] { cache.sources[d.index] = d }
                    context.sinkInputs { r in
                        for s in (try? r.get()) ?? [] { cache.sinkInputs[s.index] = s }
                        context.sourceOutputs { r in
                            for s in (try? r.get()) ?? [] { cache.sourceOutputs[s.index] = s }
                            context.cards { r in
                                for c in (try? r.get()) ?? [] { cache.cards[c.index] = c }
                                result.append(cache)
                                done.signal()
                            }
                        }
                    }
                }
            }
        }
        guard done.wait(timeout: .now() + 10) == .success, let cache = result.items.first else {
            throw HarnessError("the fresh read did not finish")
        }
        return cache
    }
}

extension FreshIntrospection {
    /// The server's stream memory (module-stream-restore through ext-stream-restore).
    func restoreEntries() throws -> [PulseRestoreEntry] {
        let result = Recorder<Result<[PulseRestoreEntry], PulseError>>()
        let done = DispatchSemaphore(value: 0)
        loop.perform { [self] in
            guard let context = currentContext else {
                done.signal()
                return
            }
            context.restoreEntries {
                result.append($0)
                done.signal()
            }
        }
        guard done.wait(timeout: .now() + 10) == .success, let entries = result.items.first else {
            throw HarnessError("the stream memory was not read")
        }
        return try entries.get()
    }
}

/// What must agree between the cache and a fresh read (latencies move all the time and are left out).
struct CacheProjection: Equatable {
    struct Device: Equatable {
        var name: String, description: String, mute: Bool, volume: [UInt32], activePort: String?, ports: [String]
    }
    struct Stream: Equatable {
        var device: UInt32, corked: Bool, mute: Bool, volume: [UInt32], client: UInt32?
    }
    var sinks: [UInt32: Device]
    var sources: [UInt32: Device]
    var sinkInputs: [UInt32: Stream]
    var sourceOutputs: [UInt32: Stream]
    var cards: [UInt32: String]

    init(_ cache: ServerCache) {
        func device(_ d: PulseDevice) -> Device {
            Device(name: d.name, description: d.description, mute: d.mute, volume: d.volume,
                   activePort: d.activePortName, ports: d.ports.map(\.name))
        }
        func stream(_ s: PulseStream) -> Stream {
            Stream(device: s.device, corked: s.corked, mute: s.mute, volume: s.volume, client: s.client)
        }
        sinks = cache.sinks.mapValues(device)
        sources = cache.sources.mapValues(device)
        sinkInputs = cache.sinkInputs.mapValues(stream)
        sourceOutputs = cache.sourceOutputs.mapValues(stream)
        cards = cache.cards.mapValues(\.name)
    }
}
