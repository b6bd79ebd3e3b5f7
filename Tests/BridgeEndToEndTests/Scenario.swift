// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import DBusKit
import Foundation

/// A private sound server and bus with `audiosessiond` running on them, and helpers to drive both.
final class Scenario: BridgedServer, @unchecked Sendable {
    init(_ kind: SoundServerKind) throws { try super.init(server: SoundServer(kind)) }
    override init(server: SoundServer, daemonArguments: [String] = [],
                  executable: String = BridgeDaemon.testBuild) throws {
        try super.init(server: server, daemonArguments: daemonArguments, executable: executable)
    }
    /// With the BlueZ stand-in's headset on the server (`SoundServer+Bluetooth.swift`).
    init(_ kind: SoundServerKind, bluetoothHeadset: Bool) throws {
        try super.init(server: SoundServer(kind, bluetoothHeadset: bluetoothHeadset))
    }

    /// Plays silence as `app` with a session's token, and waits until the bridge put the stream in that session.
    @discardableResult
    func play(_ app: String, token: String, in path: String, observer: BusClient) throws -> ReportedStream {
        try server.play(app: app, properties: ["audiosession.token": token])
        let stream = try server.reportedStream(of: app)
        try waitUntil("\(app)'s stream to join \(path) and play") {
            let seen = try bridgeView(of: stream.index, observer)
            return seen?["session"] as? String == path && seen?["corked"] as? Bool == false
        }
        return stream
    }

    /// A playing music session (playback) and a playing game (ambient) whose stream the user set to
    /// `gameVolume`, both of `app`.
    func musicAndGame(_ app: BusClient, gameVolume: UInt32) throws
        -> (music: (path: String, token: String), song: ReportedStream, effects: ReportedStream)
    {
        let music = try session(app, "music", "playback")
        let song = try play("music", token: music.token, in: music.path, observer: app)
        let game = try session(app, "game", "ambient")
        let effects = try play("game", token: game.token, in: game.path, observer: app)
        try userSetsVolume(effects, gameVolume, observer: app)
        return (music, song, effects)
    }

    /// Sets a stream's volume as a user would, with pactl, and waits until the bridge has heard of it.
    /// A command of the bridge's sent before it hears of the change would overwrite it at the server
    /// (docs/limits.md), so a test that means the user's change to come first waits for it.
    func userSetsVolume(_ stream: ReportedStream, _ value: UInt32, observer: BusClient) throws {
        try server.pactl(["set-sink-input-volume", "\(stream.index)", "\(value)"])
        try waitUntil("the user's volume") { try volume(stream) == ["front-left": value, "front-right": value] }
        try waitUntil("the bridge to hear of the user's volume") {
            (try bridgeView(of: stream.index, observer)?["volume"] as? [Int]) == [Int(value), Int(value)]
        }
    }

    /// The manager's `Snapshot()`, parsed.
    func snapshot(_ client: BusClient) throws -> [String: Any] {
        let json = try client.call(BusClient.manager, BusClient.bridge, "Snapshot")[0].stringValue ?? "{}"
        return try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]
    }

    /// The bridge's view of a sink-input in a snapshot.
    static func stream(_ index: UInt32, in snapshot: [String: Any]) -> [String: Any]? {
        (snapshot["streams"] as? [[String: Any]] ?? []).first { $0["stream"] as? String == "sink-input/\(index)" }
    }

    /// The bridge's view of a sink-input, from `Snapshot()`.
    func bridgeView(of index: UInt32, _ client: BusClient) throws -> [String: Any]? {
        Self.stream(index, in: try snapshot(client))
    }

    /// Waits until the bridge's view (`Snapshot()`) holds the device named `name`.
    func waitForBridgeDevice(_ name: String, observer: BusClient) throws {
        try waitUntil("the bridge to see the device \(name)") {
            (try snapshot(observer)["devices"] as? [[String: Any]] ?? []).contains { $0["name"] as? String == name }
        }
    }

    /// Waits until the bridge has recorded `sink` as the default output.
    func waitForBridgeDefault(_ sink: String) throws {
        try waitUntil("the bridge to see \(sink) as the default") {
            daemon.records.contains { $0["event"] as? String == "server.default" && $0["output"] as? String == sink }
        }
    }

    func muted(_ stream: ReportedStream) throws -> Bool? { try server.reportedStream(index: stream.index)?.mute }
    func volume(_ stream: ReportedStream) throws -> [String: UInt32]? { try server.reportedStream(index: stream.index)?.volume }
}
