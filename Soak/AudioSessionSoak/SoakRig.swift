// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import DBusKit
import Foundation

/// A private server and bridge for one run, with what the runs ask of them.
final class SoakRig: BridgedServer, @unchecked Sendable {
    /// How long a run's server may live before the harness's watchdog ends it: longer than any run.
    static let lifetime = Duration.seconds(4 * 3600)

    init(_ kind: SoundServerKind) throws { try super.init(server: SoundServer(kind, lifetime: Self.lifetime)) }

    /// The last lines the sound server wrote to its log, for a failure that needs them.
    func serverLogTail() -> String {
        let folder = server.root + "/logs"
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return files.filter { $0.hasPrefix("pulseaudio") || $0.hasPrefix("pipewire-pulse") }.sorted()
            .map { textSoFar(folder + "/" + $0).split(separator: "\n").suffix(8).joined(separator: " | ") }
            .joined(separator: " || ")
    }

    /// A playing stream of an app that is no child of this process (a `pacat` re-parented away), as
    /// the server reports it, with the user's volume set on it.
    func playingApp(_ app: String, role: String, userVolume: UInt32) throws -> (stream: ReportedStream, pid: Int32) {
        let pid = try server.playDetached(app: app, role: role)
        let stream = try server.reportedStream(of: app)
        try server.pactl(["set-sink-input-volume", "\(stream.index)", "\(userVolume)"])
        try waitUntil("\(app) at the user's volume") { try levels(stream.index)?.volume == userVolume }
        // The runs start once the bridge has seen the user's volume too: a duck decided before that
        // starts from the old level (see DuckingTests, a step landing after the user's change).
        let observer = try client()
        try waitUntil("the bridge to see \(app)'s volume") {
            let json = try observer.call(BusClient.manager, BusClient.bridge, "Snapshot")[0].stringValue ?? "{}"
            let snapshot = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            let streams = snapshot?["streams"] as? [[String: Any]] ?? []
            return streams.contains { $0["stream"] as? String == "sink-input/\(stream.index)"
                && ($0["volume"] as? [Int])?.allSatisfy { $0 == Int(userVolume) } == true }
        }
        return (stream, pid)
    }

    /// A stream's volume (its loudest channel) and mute, as the server reports them.
    func levels(_ index: UInt32) throws -> (volume: UInt32, mute: Bool)? {
        guard let stream = try server.reportedStream(index: index) else { return nil }
        return (stream.volume.values.max() ?? 0, stream.mute)
    }

    /// Whether the stream is back at the user's levels: that volume and unmuted.
    func atUserLevels(_ index: UInt32, _ volume: UInt32) throws -> Bool {
        guard let levels = try levels(index) else { return false }
        return levels.volume == volume && !levels.mute
    }
}

/// Polls `condition` and returns how long it took to hold, or nil after `timeout`.
func timeUntil(timeout: Duration = .seconds(10), _ condition: () throws -> Bool) -> Duration? {
    let clock = ContinuousClock()
    let start = clock.now
    while clock.now - start < timeout {
        if (try? condition()) == true { return clock.now - start }
        usleep(1000)
    }
    return nil
}

/// Tries a Unix socket every 0.5 ms on a thread of its own, from its creation until ``stop()``, and
/// keeps the moment it first accepted a connection: when a restarted server began to accept clients.
final class SocketAcceptance: @unchecked Sendable {
    private let lock = NSLock()
    private var acceptedAt: ContinuousClock.Instant?
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)

    init(path: String) {
        Thread.detachNewThread { [self] in
            while !lock.withLock({ stopped || acceptedAt != nil }) {
                if unixSocketAccepts(path) {
                    lock.withLock { acceptedAt = ContinuousClock.now }
                } else {
                    usleep(500)
                }
            }
            done.signal()
        }
    }

    /// Ends the tries; returns when the socket first accepted, or nil if it never did.
    func stop() -> ContinuousClock.Instant? {
        lock.withLock { stopped = true }
        done.wait()
        return lock.withLock { acceptedAt }
    }
}

/// Work run on a thread of its own while the caller goes on; ``wait()`` returns once it is done and
/// rethrows its error.
final class BackgroundWork: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var failure: Error?

    init(_ work: @escaping @Sendable () throws -> Void) {
        Thread.detachNewThread { [self] in
            do { try work() } catch { failure = error }
            done.signal()
        }
    }

    func wait() throws {
        done.wait()
        if let failure { throw failure }
    }
}
