// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import Testing

@testable import MediaPlayerKit
import ServerTestTraits

/// What the handlers received, in order (they run on a queue of the test's own).
final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ item: String) { lock.withLock { items.append(item) } }
    var all: [String] { lock.withLock { items } }
    func waitFor(_ item: String) throws {
        try waitUntil("the handler to receive \(item) (it has \(all))") { all.contains(item) }
    }
}

/// A podcast app's player on a private bus, driven by playerctl, the MPRIS client nobody here wrote.
@Suite("MediaPlayerKit through playerctl", .serialized, .threadOfItsOwn)
struct PlayerctlTests {
    let bus: PrivateBus
    let player: MPRISPlayer
    let received = Received()
    let handlers = DispatchQueue(label: "handlers")

    init() throws {
        bus = try PrivateBus()
        player = MPRISPlayer(busAddress: bus.address, appID: "podcast")
        player.commandCenter.handlerQueue = handlers
    }

    /// Runs `playerctl -p podcast ARGS`; its output, or an error with its status and output.
    @discardableResult
    func playerctl(_ arguments: String...) throws -> String {
        let (status, output) = try bus.run("playerctl", ["--player=podcast"] + arguments)
        guard status == 0 else { throw HarnessError("playerctl \(arguments.joined(separator: " ")) exited \(status): \(output)") }
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A player property, read with gdbus.
    func property(_ name: String) throws -> String {
        try bus.run("gdbus", ["call", "--session", "--dest", player.busName, "--object-path", "/org/mpris/MediaPlayer2",
                              "--method", "org.freedesktop.DBus.Properties.Get", "org.mpris.MediaPlayer2.Player", name]).output
    }

    func waitUntilListed() throws {
        try waitUntil("playerctl -l to list the podcast player") {
            try bus.run("playerctl", ["-l"]).output.contains("podcast.instance\(getpid())")
        }
    }

    func addTargets() {
        let center = player.commandCenter
        let received = received
        center.playCommand.addTarget { _ in received.add("play"); return .success }
        center.pauseCommand.addTarget { _ in received.add("pause"); return .success }
        center.togglePlayPauseCommand.addTarget { _ in received.add("toggle"); return .success }
        center.nextTrackCommand.addTarget { _ in received.add("next"); return .success }
        center.previousTrackCommand.addTarget { _ in received.add("previous"); return .success }
        center.changePlaybackPositionCommand.addTarget { event in
            received.add("position \((event as! ChangePlaybackPositionCommandEvent).positionTime)")
            return .success
        }
    }

    @Test("playerctl lists the app, its commands reach the targets with their values, and metadata and status follow the info")
    func commandsAndNowPlaying() throws {
        addTargets()
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 32))
        player.nowPlayingInfoCenter.nowPlayingInfo = [
            MediaItemPropertyTitle: "Episode 12", MediaItemPropertyArtist: "The Show", MediaItemPropertyAlbumTitle: "Season 2",
            MediaItemPropertyPlaybackDuration: NSNumber(value: 1800), NowPlayingInfoPropertyElapsedPlaybackTime: 10.0,
            NowPlayingInfoPropertyPlaybackRate: 0.0, MediaItemPropertyArtwork: MediaItemArtwork(data: png),
        ]
        player.nowPlayingInfoCenter.playbackState = .paused
        try waitUntilListed()

        for (command, expected) in [("play", "play"), ("pause", "pause"), ("play-pause", "toggle"), ("next", "next"),
                                    ("previous", "previous")] {
            try playerctl(command)
            try received.waitFor(expected)
        }
        try playerctl("position", "30")
        try received.waitFor("position 30.0")
        try playerctl("position", "5+")  // paused at 10 s: a seek of 5 s lands at 15 s
        try received.waitFor("position 15.0")

        let metadata = try playerctl("metadata", "--format", "{{title}}|{{artist}}|{{album}}|{{mpris:length}}|{{mpris:artUrl}}")
        let fields = metadata.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        #expect(Array(fields.prefix(4)) == ["Episode 12", "The Show", "Season 2", "1800000000"])
        let art = try #require(fields.last.flatMap(URL.init(string:)))
        #expect(art.isFileURL && FileManager.default.contents(atPath: art.path) == png)

        #expect(try playerctl("status") == "Paused")
        player.nowPlayingInfoCenter.playbackState = .playing
        try waitUntil("status Playing") { (try? playerctl("status")) == "Playing" }
        player.nowPlayingInfoCenter.playbackState = .stopped
        try waitUntil("status Stopped") { (try? playerctl("status")) == "Stopped" }
    }

    @Test("a disabled or target-less command is refused and its Can* property is false")
    func refusedCommands() throws {
        addTargets()
        player.commandCenter.nextTrackCommand.isEnabled = false
        try waitUntilListed()
        try waitUntil("CanGoNext false") { try property("CanGoNext").contains("false") }
        #expect(try property("CanGoPrevious").contains("true"))
        #expect(try property("CanSeek").contains("true"))
        let next = try bus.run("gdbus", ["call", "--session", "--dest", player.busName, "--object-path", "/org/mpris/MediaPlayer2",
                                         "--method", "org.mpris.MediaPlayer2.Player.Next"])
        #expect(next.status != 0 && next.output.contains("io.github.audiosession.MediaPlayer.Error.CommandNotAvailable"))
        let stop = try bus.run("gdbus", ["call", "--session", "--dest", player.busName, "--object-path", "/org/mpris/MediaPlayer2",
                                         "--method", "org.mpris.MediaPlayer2.Player.Stop"])
        #expect(stop.status != 0 && stop.output.contains("CommandNotAvailable"))
        #expect(!received.all.contains("next"))
    }

    @Test("a failing handler answers with its named error; a handler that never returns is answered by the timeout")
    func failingAndHangingHandlers() throws {
        player.handlerTimeout = .milliseconds(300)
        player.commandCenter.playCommand.addTarget { _ in .commandFailed }
        let hang = DispatchSemaphore(value: 0)
        player.commandCenter.pauseCommand.addTarget { _ in
            hang.wait()
            return .success
        }
        defer { hang.signal() }
        try waitUntilListed()
        let call = { (member: String) in
            try bus.run("gdbus", ["call", "--session", "--dest", player.busName, "--object-path", "/org/mpris/MediaPlayer2",
                                  "--method", "org.mpris.MediaPlayer2.Player.\(member)"])
        }
        let play = try call("Play")
        #expect(play.status != 0 && play.output.contains("io.github.audiosession.MediaPlayer.Error.CommandFailed"))
        let pause = try call("Pause")
        #expect(pause.status != 0 && pause.output.contains("io.github.audiosession.MediaPlayer.Error.Timeout"))
        // The bus is not held up: the player still answers.
        #expect(try property("CanPlay").contains("true"))
    }

    @Test("the player is withdrawn when no command is offered and nothing plays; a missing artwork file leaves no art URL")
    func withdrawn() throws {
        let token = player.commandCenter.playCommand.addTarget { _ in .success }
        let missing = MediaItemArtwork(contentsOf: URL(fileURLWithPath: bus.root + "/no-such-cover.png"))
        player.nowPlayingInfoCenter.nowPlayingInfo = [MediaItemPropertyTitle: String(repeating: "long title ", count: 50_000),
                                                      MediaItemPropertyArtwork: missing]
        try waitUntilListed()
        let metadata = try playerctl("metadata", "--format", "{{mpris:artUrl}}|{{title}}")
        #expect(metadata.hasPrefix("|long title long title"))
        player.commandCenter.playCommand.removeTarget(token)
        try waitUntil("CanPlay false once the target is gone") { try property("CanPlay").contains("false") }
        try waitUntilListed()  // the info still holds it
        player.nowPlayingInfoCenter.nowPlayingInfo = nil
        try waitUntil("the player to leave the bus") { !(try bus.run("playerctl", ["-l"]).output.contains("podcast")) }
    }
}

@Suite("MediaPlayerKit's Seeked signal", .threadOfItsOwn)
struct SeekedSignalTests {
    @Test("a jump of the elapsed time emits Seeked with the new position; playing on does not")
    func seeked() throws {
        let bus = try PrivateBus()
        let player = MPRISPlayer(busAddress: bus.address, appID: "seeker")
        let monitor = try TestProcess("dbus-monitor", ["--address", bus.address, "type='signal',member='Seeked'"],
                                      environment: bus.environment, logDirectory: bus.root)
        defer { monitor.stop() }
        try waitUntil("dbus-monitor to listen") { monitor.output.contains("NameAcquired") || monitor.output.contains("signal") }
        let info: [String: Any] = [MediaItemPropertyTitle: "t", MediaItemPropertyPlaybackDuration: 600.0,
                                   NowPlayingInfoPropertyElapsedPlaybackTime: 10.0, NowPlayingInfoPropertyPlaybackRate: 0.0]
        player.nowPlayingInfoCenter.nowPlayingInfo = info
        try waitUntil("the player on the bus") { try bus.run("playerctl", ["-l"]).output.contains("seeker") }
        // The same position again: no Seeked; then a jump within the track: Seeked.
        player.nowPlayingInfoCenter.nowPlayingInfo = info
        player.nowPlayingInfoCenter.nowPlayingInfo = info.merging([NowPlayingInfoPropertyElapsedPlaybackTime: 300.0]) { $1 }
        try waitUntil("Seeked with 300 s") { monitor.output.contains("int64 300000000") }
        // Another track that starts elsewhere is told by its metadata, not by Seeked.
        player.nowPlayingInfoCenter.nowPlayingInfo = info.merging([MediaItemPropertyTitle: "t2",
                                                                  NowPlayingInfoPropertyElapsedPlaybackTime: 50.0]) { $1 }
        player.nowPlayingInfoCenter.nowPlayingInfo = info.merging([MediaItemPropertyTitle: "t2",
                                                                  NowPlayingInfoPropertyElapsedPlaybackTime: 70.0]) { $1 }
        try waitUntil("Seeked with 70 s") { monitor.output.contains("int64 70000000") }
        #expect(!monitor.output.contains("int64 10000000") && !monitor.output.contains("int64 50000000"),
                "Seeked only for jumps within a track: \(monitor.output)")
    }
}
