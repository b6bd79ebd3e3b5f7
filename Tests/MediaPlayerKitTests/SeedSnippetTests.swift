// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import Glibc
import Testing

import MediaPlayerKit
import ServerTestTraits

/// A stand-in for the seed's AVPlayer: a rate, play and pause.
final class SnippetPlayer: @unchecked Sendable {
    var rate: Float = 0
    func play() { rate = 1 }
    func pause() { rate = 0 }
}

/// The seed's two functions (004, "Controlling Background Audio"), ported by dropping the `MP` prefix
/// and giving the artwork as PNG data instead of a `UIImage`.
final class SeedPlayerViewController: @unchecked Sendable {
    let player = SnippetPlayer()
    let artwork = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3, 4])

    func setupRemoteTransportControls() {
        let commandCenter = RemoteCommandCenter.shared()
        commandCenter.playCommand.addTarget { [unowned self] event in
            if self.player.rate == 0.0 {
                self.player.play()
                return .success
            }
            return .commandFailed
        }
        commandCenter.pauseCommand.addTarget { [unowned self] event in
            if self.player.rate == 1.0 {
                self.player.pause()
                return .success
            }
            return .commandFailed
        }
    }

    func setupNowPlaying() {
        var nowPlayingInfo = [String: Any]()
        nowPlayingInfo[MediaItemPropertyTitle] = "My Movie"
        nowPlayingInfo[MediaItemPropertyArtwork] = MediaItemArtwork(boundsSize: CGSize(width: 600, height: 600)) { [artwork] size in
            artwork
        }
        nowPlayingInfo[NowPlayingInfoPropertyElapsedPlaybackTime] = 12.0
        nowPlayingInfo[MediaItemPropertyPlaybackDuration] = 5400.0
        nowPlayingInfo[NowPlayingInfoPropertyPlaybackRate] = player.rate
        NowPlayingInfoCenter.default().nowPlayingInfo = nowPlayingInfo
    }
}

@Suite("The seed's remote-control snippets", .threadOfItsOwn)
struct SeedSnippetTests {
    @Test("setupRemoteTransportControls and setupNowPlaying, renamed, work against playerctl")
    func seedSnippets() throws {
        // The shared centers talk to the session bus of the process: this test's private one.
        let bus = try PrivateBus()
        setenv("DBUS_SESSION_BUS_ADDRESS", bus.address, 1)
        RemoteCommandCenter.shared().handlerQueue = DispatchQueue(label: "seed handlers")
        let controller = SeedPlayerViewController()
        controller.setupRemoteTransportControls()
        controller.setupNowPlaying()
        let name = MPRISPlayer.shared.busName.replacingOccurrences(of: "org.mpris.MediaPlayer2.", with: "")
        try waitUntil("playerctl -l to list \(name)") { try bus.run("playerctl", ["-l"]).output.contains(name) }

        #expect(try bus.run("playerctl", ["--player=\(name)", "metadata", "title"]).output.contains("My Movie"))
        #expect(try bus.run("playerctl", ["--player=\(name)", "play"]).status == 0)
        try waitUntil("the player to play") { controller.player.rate == 1 }
        // Playing already: the seed's handler answers commandFailed, and MPRIS sees the error.
        let again = try bus.run("gdbus", ["call", "--session", "--dest", MPRISPlayer.shared.busName, "--object-path",
                                          "/org/mpris/MediaPlayer2", "--method", "org.mpris.MediaPlayer2.Player.Play"])
        #expect(again.status != 0 && again.output.contains("CommandFailed"))
        #expect(try bus.run("playerctl", ["--player=\(name)", "pause"]).status == 0)
        try waitUntil("the player to pause") { controller.player.rate == 0 }
        let art = try bus.run("playerctl", ["--player=\(name)", "metadata", "mpris:artUrl"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(URL(string: art).flatMap { FileManager.default.contents(atPath: $0.path) } == controller.artwork)
    }
}
