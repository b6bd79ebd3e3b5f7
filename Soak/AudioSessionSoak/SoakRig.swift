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
