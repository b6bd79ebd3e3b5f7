// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// `pacat` as it comes keeps a two-second buffer, and on PulseAudio every volume or mute of such a
/// stream rewinds the sink: a millisecond or more of the server's time each. A call's fade over ten of
/// them, sent on the clock alone, piled its steps into one turn of the server's loop, and the server
/// announced none of them until the fade was over: every client, the bridge included, saw the music go
/// from playing to muted in one change, some 100 ms after the call. A fade's next step now waits for
/// the server's answers to the one before (DESIGN §3, *Order, not timing*; DECISIONS 120), so each step
/// is announced on its own. Watched with `pactl subscribe`.
///
/// The bridge is the release build `make test` makes first: the debug build's own step after the call
/// is slow enough that its later steps never caught the server's turn, and the test could not fail.
@Suite("A call's fade over players with long buffers is announced step by step", .serialized, .threadOfItsOwn)
struct FadeStepByStepTests {
    @Test("each music stream is announced at least twice during the call's fade: its first step, then its end")
    func stepByStep() throws {
        try withMusic(streams: 10) { bridged, server, music, announcements in
            // The null sink renders two seconds ahead at once, then plays them out: a command right after
            // such a render rewinds all of it, one just before the next render almost nothing.
            var playedOut = false
            try bridged.waitUntil("the sink to have played its first render out, then rendered the next", timeout: .seconds(20)) {
                let ahead = try server.streams().map { $0["sink_latency_usec"] as? Int ?? 0 }.max() ?? 0
                playedOut = playedOut || ahead < 500_000
                return playedOut && ahead >= 1_500_000
            }
            let call = try TestProcess("pacat", ["--playback", "--client-name=Phone", "--property=media.role=phone", "/dev/urandom"],
                                       environment: server.environment, logDirectory: server.root + "/logs", name: "phone")
            defer { _ = call.stop() }
            let callIndex = try server.stream(of: "Phone")["index"] as? Int ?? -1
            try bridged.waitUntil("the music muted by the call") {
                try server.streams().compactMap(ReportedStream.init).filter { music.contains($0.index) }.allSatisfy(\.mute)
            }
            // Read until pactl has printed them: piled up, each stream is announced once and the wait ends in
            // its timeout, naming the counts.
            func seen() -> [(UInt32, Int)] {
                Self.changes(of: music, after: "'new' on sink-input #\(callIndex)", in: announcements.output).sorted { $0.key < $1.key }
            }
            try bridged.waitUntil("each music stream announced at least twice after the call; announcements per stream: \(seen())") {
                seen().allSatisfy { $0.1 >= 2 }
            }
        }
    }

    /// PulseAudio writes its answers to commands before it announces what they changed, and reads the
    /// next commands in between. A server held after each write, as a loaded machine holds it, read
    /// there a fade step that left once the step before was answered, and announced the two as one
    /// change (DECISIONS 128): every client saw the music go from playing to muted at once. Now a marker
    /// behind each batch of a fade makes its next step wait for the announcement. A tracer holds every
    /// write of the server's main thread for 40 ms, longer than the whole fade, from just before each
    /// call until the music is muted. The old order failed about one call in two with `pacat`, so the
    /// test makes three; mpv is the player people run.
    @Test("each call's fade is announced in at least two changes on a server held after each of its writes",
          arguments: Player.allCases)
    func stepByStepOnAHeldServer(player: Player) throws {
        try withMusic(streams: 1, player: player) { bridged, server, music, announcements in
            let level = try server.streams().compactMap(ReportedStream.init).first { music.contains($0.index) }?.volume
            for call in 1...3 {
                let held = try Self.holdAfterEachWrite(server, milliseconds: 40)
                defer { _ = held.stop() }
                let phone = try TestProcess("pacat", ["--playback", "--client-name=Phone", "--property=media.role=phone", "/dev/urandom"],
                                            environment: server.environment, logDirectory: server.root + "/logs", name: "phone-\(call)")
                defer { _ = phone.stop() }
                // Asked of the held server, as a user would: pactl's own connections and answers keep it
                // writing, and so held, while the bridge's commands come in.
                let callIndex = try server.stream(of: "Phone", timeout: .seconds(30))["index"] as? Int ?? -1
                try bridged.waitUntil("the music muted by call \(call)", timeout: .seconds(30)) {
                    try server.streams().compactMap(ReportedStream.init).filter { music.contains($0.index) }.allSatisfy(\.mute)
                }
                _ = held.stop()
                #expect(Self.writesHeld(held) > 0, "call \(call): the holder held none of the server's writes: \(held.output)")
                _ = phone.stop()
                try bridged.waitUntil("the music back at its level after call \(call)", timeout: .seconds(30)) {
                    try server.streams().compactMap(ReportedStream.init).filter { music.contains($0.index) }
                        .allSatisfy { !$0.mute && $0.volume == level }
                }
                let ended = "'remove' on sink-input #\(callIndex)"
                try bridged.waitUntil("pactl to hear call \(call) end") { announcements.output.contains(ended) }
                let during = Self.changes(of: music, after: "'new' on sink-input #\(callIndex)", in: announcements.output.components(separatedBy: ended)[0])
                #expect(during.values.allSatisfy { $0 >= 2 }, "call \(call): announcements of the music during the call: \(during)")
            }
        }
    }

    /// A music player the fades are heard over, its streams named Tunes.
    enum Player: String, CaseIterable, CustomStringConvertible, Sendable {
        /// `pacat` as it comes: its own sample format and its own two-second buffer.
        case pacat
        /// mpv playing a tone, without its MPRIS plugin (`--no-config`): the bridge can only fade and mute it.
        case mpv

        var description: String { rawValue }

        var command: (program: String, arguments: [String]) {
            switch self {
            case .pacat: ("pacat", ["--playback", "--client-name=Tunes", "--property=media.role=music", "/dev/zero"])
            case .mpv: ("mpv", ["--no-config", "--no-video", "--no-terminal", "--ao=pulse", "--audio-buffer=2", "--audio-client-name=Tunes",
                                "av://lavfi:sine=frequency=440"])
            }
        }
    }

    /// A bridge (the release build) on PulseAudio with shared memory, `streams` music streams of
    /// `player`, and `pactl subscribe` hearing the server. PulseAudio: pipewire-pulse answers a command
    /// before it carries it out, and announces changes as its graph takes them, so the order these tests
    /// read is PulseAudio's.
    func withMusic(streams: Int, player: Player = .pacat,
                   _ body: (BridgedServer, SoundServer, [UInt32], TestProcess) throws -> Void) throws {
        let bridged = try BridgedServer(server: SoundServer(.pulseaudio), daemonArguments: ["--shared-memory-after", "0"],
                                        executable: BridgeDaemon.releaseBuild)
        defer { bridged.stop() }
        let server = bridged.server
        try bridged.daemon.waitUntilSharingMemory()
        let players = try (0..<streams).map { number in
            try TestProcess(player.command.program, player.command.arguments,
                            environment: server.environment, logDirectory: server.root + "/logs", name: "tunes-\(number)")
        }
        defer { players.forEach { _ = $0.stop() } }
        try bridged.waitUntil("the bridge to have the music streams") {
            bridged.daemon.records("stream.added").filter { $0["app"] as? String == "Tunes" }.count == streams
        }
        let music = try server.streams().compactMap(ReportedStream.init).filter { $0.app == "Tunes" }.map(\.index)
        #expect(music.count == streams)
        let announcements = try TestProcess("pactl", ["subscribe"], environment: server.environment,
                                            logDirectory: server.root + "/logs", name: "pactl-subscribe")
        defer { _ = announcements.stop() }
        try Self.waitUntilSubscribed(announcements, server)
        try body(bridged, server, music, announcements)
    }

    /// Holds the server's main thread for `milliseconds` after each of its writes, until the returned
    /// holder stops (`Tests/Tools/write-holder`, built here). strace's `inject=write:delay_exit` did
    /// the same, but strace 6.1 resumes a held thread from a timer signal, and under `make stress` it
    /// once left the server stopped for good, its timer disarmed: every `pactl` after it waited forever.
    static func holdAfterEachWrite(_ server: SoundServer, milliseconds: Int) throws -> TestProcess {
        let holder = server.root + "/write-holder"
        if !FileManager.default.fileExists(atPath: holder) {
            let (status, output) = try TestProcess.run("gcc", ["-std=gnu11", "-Wall", "-Wextra", "-Werror", "-O2", "-o", holder,
                                                               Repository.root + "/Tests/Tools/write-holder/write_holder.c"],
                                                       environment: server.environment)
            guard status == 0 else { throw HarnessError("the write holder did not build: \(output)") }
        }
        let held = try server.spawn(holder, [String(server.serverPID ?? 0), String(milliseconds * 1000)])
        try waitUntil("the write holder to hold the server") {
            guard held.isRunning else { throw HarnessError("the write holder exited: \(held.output)") }
            return held.output.contains("attached")
        }
        return held
    }

    /// How many writes a stopped holder held (its last line, `held N writes`).
    static func writesHeld(_ holder: TestProcess) -> Int {
        holder.output.split(separator: "\n").last.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
    }

    /// Waits until `pactl subscribe` hears the server: a sample uploaded (nothing the bridge acts on)
    /// is announced to it.
    static func waitUntilSubscribed(_ announcements: TestProcess, _ server: SoundServer) throws {
        let marker = server.root + "/marker.wav"
        try wave(frames: 480).write(to: URL(fileURLWithPath: marker))
        var uploaded = 0
        try waitUntil("pactl subscribe to hear the server") {
            if announcements.output.contains("on sample") { return true }
            uploaded += 1
            _ = try server.pactl(["upload-sample", marker, "marker-\(uploaded)"])
            return false
        }
    }

    /// How many changes the server announced of each of `streams` after the line containing `start`.
    static func changes(of streams: [UInt32], after start: String, in output: String) -> [UInt32: Int] {
        let lines = output.split(separator: "\n")
        let from = lines.firstIndex { $0.contains(start) }.map { $0 + 1 } ?? lines.endIndex
        var counts = Dictionary(uniqueKeysWithValues: streams.map { ($0, 0) })
        for line in lines[from...] where line.contains("'change' on sink-input #") {
            if let index = line.split(separator: "#").last.flatMap({ UInt32($0) }), counts[index] != nil { counts[index]! += 1 }
        }
        return counts
    }

    /// A silent 16-bit stereo WAV file of `frames` frames at 48 kHz.
    static func wave(frames: Int) -> Data {
        func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        func le16(_ value: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let bytes = frames * 4
        var data = Array("RIFF".utf8) + le32(36 + bytes) + Array("WAVEfmt ".utf8) + le32(16) + le16(1) + le16(2)
        data += le32(48_000) + le32(48_000 * 4) + le16(4) + le16(16) + Array("data".utf8) + le32(bytes)
        return Data(data + [UInt8](repeating: 0, count: bytes))
    }
}
