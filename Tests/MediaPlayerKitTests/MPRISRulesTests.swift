// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

@testable import MediaPlayerKit

/// The MPRIS player's rules as tables: which command a call reaches, the status, the position and the
/// metadata.
@Suite("MPRIS rules")
struct MPRISRulesTests {
    static let all = RemoteCommandOffers(play: true, pause: true, togglePlayPause: true, stop: true, next: true,
                                         previous: true, skipForward: true, skipBackward: true, changePosition: true,
                                         changeRate: true, rates: [0.5, 1, 2])
    static let playPauseOnly = RemoteCommandOffers(play: true, pause: true)
    static let toggleOnly = RemoteCommandOffers(togglePlayPause: true)
    static let skipsOnly = RemoteCommandOffers(skipForward: true, skipBackward: true)

    struct Row: CustomStringConvertible, Sendable {
        var request: MPRISRequest
        var offers: RemoteCommandOffers
        var status = "Paused"
        var expected: CommandChoice
        var description: String { "\(request) with \(offers) while \(status)" }
    }

    static let rows: [Row] = [
        Row(request: .play, offers: all, expected: .play),
        Row(request: .play, offers: toggleOnly, expected: .togglePlayPause),
        Row(request: .play, offers: toggleOnly, status: "Playing", expected: .refused("play")),
        Row(request: .play, offers: RemoteCommandOffers(), expected: .refused("play")),
        Row(request: .pause, offers: all, status: "Playing", expected: .pause),
        Row(request: .pause, offers: toggleOnly, status: "Playing", expected: .togglePlayPause),
        Row(request: .playPause, offers: all, expected: .togglePlayPause),
        Row(request: .playPause, offers: playPauseOnly, status: "Playing", expected: .pause),
        Row(request: .playPause, offers: playPauseOnly, status: "Paused", expected: .play),
        Row(request: .stop, offers: playPauseOnly, expected: .refused("stop")),
        Row(request: .next, offers: all, expected: .next),
        Row(request: .previous, offers: playPauseOnly, expected: .refused("previousTrack")),
        // 10 s into a 100 s item: a seek moves the position, within the item.
        Row(request: .seek(5_000_000), offers: all, expected: .changePosition(seconds: 15)),
        Row(request: .seek(-20_000_000), offers: all, expected: .changePosition(seconds: 0)),
        Row(request: .seek(500_000_000), offers: all, expected: .changePosition(seconds: 100)),
        Row(request: .seek(5_000_000), offers: skipsOnly, expected: .skipForward(seconds: 5)),
        Row(request: .seek(-5_000_000), offers: skipsOnly, expected: .skipBackward(seconds: 5)),
        Row(request: .seek(5_000_000), offers: playPauseOnly, expected: .refused("skipForward")),
        Row(request: .setPosition(track: "/t/1", 30_000_000), offers: all, expected: .changePosition(seconds: 30)),
        Row(request: .setPosition(track: "/t/2", 30_000_000), offers: all, expected: .ignored),
        Row(request: .setPosition(track: "/t/1", 300_000_000), offers: all, expected: .ignored),
        Row(request: .setPosition(track: "/t/1", 30_000_000), offers: skipsOnly, expected: .refused("changePlaybackPosition")),
        Row(request: .setRate(2), offers: all, expected: .changeRate(2)),
        Row(request: .setRate(.nan), offers: all, expected: .ignored),
        Row(request: .setRate(2), offers: playPauseOnly, expected: .refused("changePlaybackRate")),
    ]

    @Test("a call reaches the command that is offered for it", arguments: rows)
    func choice(_ row: Row) {
        let choice = MPRISRules.choose(row.request, offers: row.offers, status: row.status, position: 10_000_000,
                                       trackID: "/t/1", duration: 100)
        #expect(choice == row.expected)
    }

    @Test("Can* follow the offered commands")
    func capabilities() {
        #expect(MPRISRules.canPlay(Self.toggleOnly) && MPRISRules.canPause(Self.toggleOnly))
        #expect(MPRISRules.canPlay(Self.playPauseOnly) && !MPRISRules.canSeek(Self.playPauseOnly))
        #expect(MPRISRules.canSeek(Self.skipsOnly) && !MPRISRules.canPlay(Self.skipsOnly))
        #expect(RemoteCommandOffers().isEmpty && !Self.skipsOnly.isEmpty)
    }

    @Test("the status is the playback state where set, else the rate")
    func status() {
        let item: [String: Any] = [MediaItemPropertyTitle: "x"]
        let rows: [(NowPlaying, String)] = [
            (NowPlaying(info: nil, state: .unknown, setAt: Date()), "Stopped"),
            (NowPlaying(info: item, state: .unknown, setAt: Date()), "Playing"),
            (NowPlaying(info: item.merging([NowPlayingInfoPropertyPlaybackRate: 0.0]) { $1 }, state: .unknown, setAt: Date()), "Paused"),
            (NowPlaying(info: item, state: .paused, setAt: Date()), "Paused"),
            (NowPlaying(info: item, state: .interrupted, setAt: Date()), "Paused"),
            (NowPlaying(info: item, state: .stopped, setAt: Date()), "Stopped"),
            (NowPlaying(info: nil, state: .playing, setAt: Date()), "Playing"),
        ]
        for (nowPlaying, expected) in rows { #expect(MPRISRules.playbackStatus(nowPlaying) == expected) }
    }

    @Test("the position advances from the elapsed time at the rate while playing, within the item")
    func position() {
        let set = Date(timeIntervalSince1970: 1000)
        let info: [String: Any] = [NowPlayingInfoPropertyElapsedPlaybackTime: 10.0, NowPlayingInfoPropertyPlaybackRate: 2.0,
                                   MediaItemPropertyPlaybackDuration: NSNumber(value: 60)]
        let playing = NowPlaying(info: info, state: .playing, setAt: set)
        #expect(MPRISRules.position(playing, at: set.addingTimeInterval(5)) == 20_000_000)
        #expect(MPRISRules.position(playing, at: set.addingTimeInterval(100)) == 60_000_000)
        let paused = NowPlaying(info: info, state: .paused, setAt: set)
        #expect(MPRISRules.position(paused, at: set.addingTimeInterval(5)) == 10_000_000)
        #expect(MPRISRules.position(NowPlaying(info: nil, state: .playing, setAt: set), at: set) == 0)
    }

    @Test("the metadata carries the track id and the fields the info has")
    func metadata() {
        let info: [String: Any] = [MediaItemPropertyTitle: "Episode 12", MediaItemPropertyArtist: "The Show",
                                   MediaItemPropertyAlbumTitle: "Season 2", MediaItemPropertyPlaybackDuration: 1800]
        let fields = MPRISRules.metadata(NowPlaying(info: info, state: .playing, setAt: Date()), trackID: "/t/3",
                                         artURL: "file:///tmp/a.png")
        let byKey = Dictionary(uniqueKeysWithValues: fields)
        #expect(byKey["mpris:trackid"] == .objectPath("/t/3"))
        #expect(byKey["xesam:title"] == .string("Episode 12"))
        #expect(byKey["xesam:artist"] == .array(element: "s", [.string("The Show")]))
        #expect(byKey["xesam:album"] == .string("Season 2"))
        #expect(byKey["mpris:length"] == .int64(1_800_000_000))
        #expect(byKey["mpris:artUrl"] == .string("file:///tmp/a.png"))
        let nothing = MPRISRules.metadata(NowPlaying(info: nil, state: .stopped, setAt: Date()), trackID: "/t/3", artURL: nil)
        #expect(nothing.map(\.0) == ["mpris:trackid"])
    }

    @Test("the bus name is a valid element made from the app id, with the instance")
    func busName() {
        #expect(MPRISNames.busName(appID: "podcast-player", pid: 42) == "org.mpris.MediaPlayer2.podcast_player.instance42")
        #expect(MPRISNames.busName(appID: "9lives", pid: 7) == "org.mpris.MediaPlayer2._9lives.instance7")
        #expect(MPRISNames.busName(appID: "", pid: 7) == "org.mpris.MediaPlayer2.app.instance7")
        #expect(MPRISNames.busName(appID: "org.example.App", pid: 1) == "org.mpris.MediaPlayer2.org_example_App.instance1")
    }
}
