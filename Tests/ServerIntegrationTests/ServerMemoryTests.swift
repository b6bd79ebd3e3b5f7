// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioTestHarness
import Foundation
import PulseAudioClient
import ServerTestTraits
import Testing

/// The server's memory of an app's levels, on every stack: after the bridge touched an app's stream,
/// the app's next stream starts with the user's own mute and volume, and the server's own record
/// (PulseAudio's module-stream-restore, WirePlumber's restore-stream state) holds the user's levels.
@Suite("The server's memory of an app's levels, on real servers", .serialized, .threadOfItsOwn)
struct ServerMemoryTests {
    /// The user's own volume for the player, set in a mixer before anything happens.
    static let userVolume: UInt32 = 40000

    /// How the bridge touched the player's stream before it ended.
    enum Touch: String, CaseIterable, CustomStringConvertible {
        /// A call muted it, and the stream ended while muted.
        case endedMuted = "ended while muted by a call"
        /// A call of about 30 ms muted it, the bridge undid the mute, and the stream ended right after.
        case briefMuteUndone = "a 30 ms mute undone just before the stream ended"
        var description: String { rawValue }
    }

    @Test("after the bridge touched a stream, the app's next stream starts with the user's own levels",
          arguments: SoundServerKind.underTest, Touch.allCases)
    func nextStreamStartsWithUserLevels(kind: SoundServerKind, touch: Touch) throws {
        let rig = try BridgedServer(kind)
        defer { rig.stop() }
        let (server, daemon) = (rig.server, rig.daemon)
        let player = try Player(server)
        try player.start()
        try server.pactl(["set-sink-input-volume", "\(try player.stream().index)", "\(Self.userVolume)"])
        try player.waitForUserLevels("the user's volume to land")
        try waitUntil("the server's memory of the user's volume (\(Self.stateFiles(server)))") { try remembered(server)?.matchesUser == true }

        let call = try server.play(app: "softphone", role: "phone")
        try waitUntil("the call to mute the player") { try player.stream().mute }
        switch touch {
        case .endedMuted:
            try endBoth(player, call, daemon)
        case .briefMuteUndone:
            usleep(30_000)
            call.stop()
            try waitUntil("the bridge to unmute the player") { try !player.stream().mute }
            player.stop()
        }
        try waitUntil("the player's stream to be gone") { try server.streams().allSatisfy { ($0["properties"] as? [String: Any])?["application.name"] as? String != Player.name } }

        try player.start()
        try player.waitForUserLevels("the next stream to have the user's levels")
        try waitUntil("the server's memory to hold the user's levels (now \(String(describing: try? remembered(server))))") {
            try remembered(server)?.matchesUser == true
        }
        let second = try player.stream().index
        player.stop()

        // What the server remembers is the user's own: the stream after that has the user's levels and
        // the memory keeps them. PulseAudio applies its memory before it announces a stream, so there
        // the bridge has nothing to do; pipewire-pulse announces a stream before WirePlumber restores
        // its levels, so the bridge may set the same user's levels once more.
        try player.start()
        try player.waitForUserLevels("the third stream to have the user's levels")
        let third = "sink-input/\(try player.stream().index)"
        try waitUntil("the bridge to log the third stream") {
            daemon.records.contains { $0["event"] as? String == "stream.added" && $0["stream"] as? String == third }
        }
        #expect(try remembered(server)?.matchesUser == true)
        if kind == .pulseaudio {
            let acted = daemon.records.filter { $0["event"] as? String == "action" && $0["stream"] as? String == third }
            #expect(acted.isEmpty, "the bridge had to act on the third stream (\(second) was the repaired one): \(acted)")
        }
    }

    /// An app's level is its own: players and games set their stream's volume as they open it, and users
    /// move sliders as a track starts. After a call muted the app's last stream, a volume a client sets
    /// on the next stream within its first 100 ms stays, and the server's memory of the bridge's mute,
    /// whenever it comes, is still undone.
    @Test("after a call muted the app's last stream, a volume a client sets on its next stream at once stays",
          arguments: SoundServerKind.underTest)
    func clientVolumeOnNextStreamStays(kind: SoundServerKind) throws {
        let rig = try BridgedServer(kind)
        defer { rig.stop() }
        let (server, daemon) = (rig.server, rig.daemon)
        let player = try Player(server)
        try player.start()
        let call = try server.play(app: "softphone", role: "phone")
        try waitUntil("the call to mute the player") { try player.stream().mute }
        try endBoth(player, call, daemon)
        try waitUntil("the player's stream to be gone") {
            try server.streams().allSatisfy { ($0["properties"] as? [String: Any])?["application.name"] as? String != Player.name }
        }

        try player.start()
        let next = try player.stream()  // asked for every 10 ms until the server has it
        let seen = ContinuousClock.now
        try server.pactl(["set-sink-input-volume", "\(next.index)", "\(Self.clientVolume)"])
        let setAfter = ContinuousClock.now - seen
        func levels() -> String { (try? server.reportedStream(index: next.index)).map { "\(String(describing: $0))" } ?? "gone" }
        try waitUntil("the client's volume, unmuted (now \(levels()); set \(setAfter) after the stream was seen)") {
            let stream = try server.reportedStream(index: next.index)
            return stream?.mute == false && stream?.volume.values.allSatisfy { $0 == Self.clientVolume } == true
        }
        // The bridge takes a level it did not set for the server's memory only within its window after the
        // stream appeared (EngineSettings.serverMemoryWindow); past that, the levels are still the client's.
        let window = EngineSettings().serverMemoryWindow
        while ContinuousClock.now < seen + window { usleep(50_000) }
        let stream = try #require(try server.reportedStream(index: next.index))
        #expect(!stream.mute && stream.volume.values.allSatisfy { $0 == Self.clientVolume },
                "set \(setAfter) after the stream was seen; now \(stream); the bridge: \(daemon.diagnosis(lastRecords: 12))")
    }

    /// A player that opens its next track's stream while a call has its current one muted: the server
    /// starts the new stream with what it remembers of the app, the call's mute. Once the call ends,
    /// both streams have the user's own levels, and so has the server's memory.
    @Test("a stream an app opens while a call has its other stream muted has the user's levels once the call ends",
          arguments: SoundServerKind.underTest)
    func streamOpenedDuringACall(kind: SoundServerKind) throws {
        let rig = try BridgedServer(kind)
        defer { rig.stop() }
        let server = rig.server
        let player = try Player(server)
        try player.start()
        defer { player.stop() }
        let first = try player.stream().index
        try server.pactl(["set-sink-input-volume", "\(first)", "\(Self.userVolume)"])
        try player.waitForUserLevels("the user's volume to land")
        try waitUntil("the server's memory of the user's volume (\(Self.stateFiles(server)))") { try remembered(server)?.matchesUser == true }

        let call = try server.play(app: "softphone", role: "phone")
        try waitUntil("the call to mute the player") { try server.reportedStream(index: first)?.mute == true }
        try waitUntil("the server to remember the call's mute") { try remembered(server)?.mute == true }
        let nextTrack = try server.play(app: Player.name, role: "music")
        defer { nextTrack.stop() }
        var second: ReportedStream?
        try waitUntil("the player's second stream") {
            second = try server.streams().compactMap(ReportedStream.init).first { $0.app == Player.name && $0.index != first }
            return second != nil
        }
        let index = try #require(second).index
        try waitUntil("the call to have the second stream muted too") { try server.reportedStream(index: index)?.mute == true }

        call.stop()
        func userLevels(_ stream: UInt32) throws -> Bool {
            guard let reported = try server.reportedStream(index: stream) else { return false }
            return !reported.mute && reported.volume.values.allSatisfy { $0 == Self.userVolume }
        }
        try waitUntil("both streams to have the user's levels (now \(String(describing: try? server.reportedStream(index: index))))") {
            try userLevels(first) && userLevels(index)
        }
        try waitUntil("the server's memory to hold the user's levels (now \(String(describing: try? remembered(server))))") {
            try remembered(server)?.matchesUser == true
        }
    }

    /// The player's stream ends while the call has it muted, then the call ends. A call's session stays
    /// active for its policy's release grace after its stream ends; a player stream started before
    /// that would start interrupted, so this waits for the session's end.
    func endBoth(_ player: Player, _ call: TestProcess, _ daemon: BridgeDaemon) throws {
        player.stop()
        call.stop()
        try waitUntil("the bridge to end the call's session") {
            daemon.records("session.active").contains { $0["app"] as? String == "softphone" && $0["active"] as? Bool == false }
        }
    }

    /// WirePlumber's saved state files, for a failure message; empty on PulseAudio.
    static func stateFiles(_ server: SoundServer) -> String {
        let folder = server.root + "/state/wireplumber"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.sorted().map { "\($0): \((try? String(contentsOfFile: folder + "/" + $0, encoding: .utf8)) ?? "")" }
            .joined(separator: "; ")
    }

    /// 73 %, as a client sets it.
    static let clientVolume: UInt32 = 47_841

    /// What the server remembers for the player (`media.role=music`), read from the server's own record:
    /// by its role, but on WirePlumber 0.5.15 and later (PipeWire 1.6's stack), which keeps per-role
    /// levels only for notifications, by its application name.
    func remembered(_ server: SoundServer) throws -> RememberedLevels? {
        switch server.kind {
        case .pulseaudio:
            let reader = try FreshIntrospection(address: server.address)
            defer { reader.close() }
            return try reader.restoreEntries().first { $0.name == "sink-input-by-media-role:music" }.map {
                RememberedLevels(mute: $0.mute, volumes: $0.volume.map { pow(Double($0) / 65536, 3) })
            }
        case .pipewire, .pipewire14:
            return RememberedLevels.wirePlumberState(in: server.root + "/state/wireplumber", key: "Output/Audio:media.role:Music")
        case .pipewire16:
            return RememberedLevels.wirePlumberState(in: server.root + "/state/wireplumber",
                                                     key: "Output/Audio:application.name:\(Player.name)")
        }
    }
}

/// Levels as a server remembers them: mute, and linear channel volumes (cubic PulseAudio volumes cubed).
struct RememberedLevels: CustomStringConvertible {
    var mute: Bool
    var volumes: [Double]

    var matchesUser: Bool {
        let expected = pow(Double(ServerMemoryTests.userVolume) / 65536, 3)
        return !mute && !volumes.isEmpty && volumes.allSatisfy { abs($0 - expected) < 0.001 }
    }

    var description: String { "mute \(mute), volumes \(volumes)" }

    /// WirePlumber's saved state: 0.4's `restore-stream` (`KEY:mute=…`, `KEY:channelVolumes=a;b;`) or
    /// 0.5's `stream-properties` (`KEY={"mute":…, "channelVolumes":[a, b], …}`).
    static func wirePlumberState(in folder: String, key: String) -> RememberedLevels? {
        if let text = try? String(contentsOfFile: folder + "/stream-properties", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix(key + "=") }),
            let json = try? JSONSerialization.jsonObject(with: Data(line.dropFirst(key.count + 1).utf8)) as? [String: Any],
            let mute = json["mute"] as? Bool, let volumes = json["channelVolumes"] as? [Double]
        {
            return RememberedLevels(mute: mute, volumes: volumes)
        }
        guard let text = try? String(contentsOfFile: folder + "/restore-stream", encoding: .utf8) else { return nil }
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            let pair = line.dropFirst(key.count + 1).split(separator: "=", maxSplits: 1)
            if pair.count == 2 { values[String(pair[0])] = String(pair[1]) }
        }
        guard let mute = values["mute"], let volumes = values["channelVolumes"] else { return nil }
        return RememberedLevels(mute: mute == "true", volumes: volumes.split(separator: ";").compactMap { Double($0) })
    }
}

/// A music player that never opted in (`pacat`, `media.role=music`), not a child of the test process.
final class Player: @unchecked Sendable {
    static let name = "memory-player"
    let server: SoundServer
    private var pid: Int32?

    init(_ server: SoundServer) throws { self.server = server }

    func start() throws { pid = try server.playDetached(app: Self.name, role: "music") }

    func stop() {
        if let pid { kill(pid, SIGKILL) }
        pid = nil
    }

    func stream() throws -> ReportedStream { try server.reportedStream(of: Self.name) }

    /// Waits until the server reports the user's own levels on the player's stream.
    func waitForUserLevels(_ what: String) throws {
        try waitUntil("\(what) (now \(String(describing: try? stream())))") {
            let stream = try stream()
            return !stream.mute && stream.volume.values.allSatisfy { $0 == ServerMemoryTests.userVolume }
        }
    }
}
