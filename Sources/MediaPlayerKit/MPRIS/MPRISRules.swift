// SPDX-License-Identifier: Apache-2.0
import DBusKit
import Foundation

/// Which remote commands are offered (enabled, with a target), and the rates offered.
struct RemoteCommandOffers: Equatable, Sendable {
    var play = false, pause = false, togglePlayPause = false, stop = false, next = false, previous = false
    var skipForward = false, skipBackward = false, changePosition = false, changeRate = false
    var rates: [Double] = [1]

    var isEmpty: Bool {
        !(play || pause || togglePlayPause || stop || next || previous || skipForward || skipBackward || changePosition
            || changeRate)
    }
}

/// The now-playing info as the center last had it.
struct NowPlaying: @unchecked Sendable {
    var info: [String: Any]?
    var state: NowPlayingPlaybackState
    var setAt: Date
}

/// A method call of `org.mpris.MediaPlayer2.Player`.
enum MPRISRequest: Equatable {
    case play, pause, playPause, stop, next, previous
    /// `Seek(x offset)`, in microseconds.
    case seek(Int64)
    /// `SetPosition(o track, x position)`, in microseconds.
    case setPosition(track: String, Int64)
    /// A write of the `Rate` property.
    case setRate(Double)
}

/// Which command a request reaches, with its event's value.
enum CommandChoice: Equatable {
    case play, pause, togglePlayPause, stop, next, previous
    case skipForward(seconds: Double), skipBackward(seconds: Double)
    case changePosition(seconds: Double)
    case changeRate(Double)
    /// No command takes it: answered with `CommandNotAvailable`.
    case refused(String)
    /// The MPRIS specification says to ignore it (a position for another track, or out of range).
    case ignored
}

/// The rules of the MPRIS player, as pure functions: what it offers, its status, position and
/// metadata, and which command a call reaches (MPRIS 2.2; tested as tables).
enum MPRISRules {
    static func canPlay(_ offers: RemoteCommandOffers) -> Bool { offers.play || offers.togglePlayPause }
    static func canPause(_ offers: RemoteCommandOffers) -> Bool { offers.pause || offers.togglePlayPause }
    static func canSeek(_ offers: RemoteCommandOffers) -> Bool {
        offers.changePosition || offers.skipForward || offers.skipBackward
    }

    /// `PlaybackStatus`: the playback state where the app set one, else from the rate.
    static func playbackStatus(_ nowPlaying: NowPlaying) -> String {
        switch nowPlaying.state {
        case .playing: return "Playing"
        case .paused, .interrupted: return "Paused"
        case .stopped: return "Stopped"
        case .unknown:
            guard nowPlaying.info != nil else { return "Stopped" }
            return rate(nowPlaying) > 0 ? "Playing" : "Paused"
        }
    }

    /// The playback rate the info gives (1 when it gives none).
    static func rate(_ nowPlaying: NowPlaying) -> Double {
        number(nowPlaying.info?[NowPlayingInfoPropertyPlaybackRate]) ?? 1
    }

    /// The item's length in seconds, if known.
    static func duration(_ nowPlaying: NowPlaying) -> Double? {
        number(nowPlaying.info?[MediaItemPropertyPlaybackDuration])
    }

    /// `Position` in microseconds at `now`: the elapsed time the app set, advanced at the rate while
    /// playing, within the item's length.
    static func position(_ nowPlaying: NowPlaying, at now: Date) -> Int64 {
        guard let info = nowPlaying.info else { return 0 }
        var seconds = number(info[NowPlayingInfoPropertyElapsedPlaybackTime]) ?? 0
        if playbackStatus(nowPlaying) == "Playing" { seconds += rate(nowPlaying) * max(0, now.timeIntervalSince(nowPlaying.setAt)) }
        if let duration = duration(nowPlaying) { seconds = min(seconds, duration) }
        return Int64(max(0, seconds) * 1_000_000)
    }

    /// `Metadata`: the track id, and the fields the info has.
    static func metadata(_ nowPlaying: NowPlaying, trackID: String, artURL: String?) -> [(String, BusValue)] {
        guard let info = nowPlaying.info else { return [("mpris:trackid", .objectPath(noTrack))] }
        var fields: [(String, BusValue)] = [("mpris:trackid", .objectPath(trackID))]
        if let title = info[MediaItemPropertyTitle] as? String { fields.append(("xesam:title", .string(title))) }
        if let artist = info[MediaItemPropertyArtist] as? String {
            fields.append(("xesam:artist", .array(element: "s", [.string(artist)])))
        }
        if let album = info[MediaItemPropertyAlbumTitle] as? String { fields.append(("xesam:album", .string(album))) }
        if let duration = duration(nowPlaying) { fields.append(("mpris:length", .int64(Int64(duration * 1_000_000)))) }
        if let artURL { fields.append(("mpris:artUrl", .string(artURL))) }
        return fields
    }

    /// The track id MPRIS reserves for "no track".
    static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"

    /// The command a request reaches. Play and Pause fall back on the toggle; PlayPause on play or
    /// pause by the status; Seek on a position change, else on a skip; SetPosition only for the
    /// current track and within its length, as the specification says.
    static func choose(_ request: MPRISRequest, offers: RemoteCommandOffers, status: String, position: Int64,
                       trackID: String, duration: Double?) -> CommandChoice {
        switch request {
        case .play:
            if offers.play { return .play }
            return offers.togglePlayPause && status != "Playing" ? .togglePlayPause : .refused("play")
        case .pause:
            if offers.pause { return .pause }
            return offers.togglePlayPause && status == "Playing" ? .togglePlayPause : .refused("pause")
        case .playPause:
            if offers.togglePlayPause { return .togglePlayPause }
            if status == "Playing" { return offers.pause ? .pause : .refused("pause") }
            return offers.play ? .play : .refused("play")
        case .stop: return offers.stop ? .stop : .refused("stop")
        case .next: return offers.next ? .next : .refused("nextTrack")
        case .previous: return offers.previous ? .previous : .refused("previousTrack")
        case .seek(let offset):
            if offers.changePosition {
                var target = max(0, Double(position + offset) / 1_000_000)
                if let duration { target = min(target, duration) }
                return .changePosition(seconds: target)
            }
            if offset >= 0 { return offers.skipForward ? .skipForward(seconds: Double(offset) / 1_000_000) : .refused("skipForward") }
            return offers.skipBackward ? .skipBackward(seconds: Double(-offset) / 1_000_000) : .refused("skipBackward")
        case .setPosition(let track, let microseconds):
            guard offers.changePosition else { return .refused("changePlaybackPosition") }
            guard track == trackID, microseconds >= 0 else { return .ignored }
            if let duration, Double(microseconds) > duration * 1_000_000 { return .ignored }
            return .changePosition(seconds: Double(microseconds) / 1_000_000)
        case .setRate(let rate):
            guard offers.changeRate else { return .refused("changePlaybackRate") }
            return rate.isFinite && rate > 0 ? .changeRate(rate) : .ignored
        }
    }

    /// A number from an info value (`NSNumber`, `Double`, `Int`, `Float`).
    static func number(_ value: Any?) -> Double? {
        switch value {
        case let value as Double: value
        case let value as Int: Double(value)
        case let value as Float: Double(value)
        case let value as NSNumber: value.doubleValue
        default: nil
        }
    }
}

/// Names of the player on the bus.
enum MPRISNames {
    static let path = "/org/mpris/MediaPlayer2"
    static let rootInterface = "org.mpris.MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"
    /// Errors a command answers with: `…CommandNotAvailable`, `…CommandFailed`, `…Timeout`, …
    static let errorPrefix = "io.github.audiosession.MediaPlayer.Error."

    /// `org.mpris.MediaPlayer2.<app>.instance<pid>`, the app id reduced to what a bus name element allows.
    static func busName(appID: String, pid: Int32) -> String {
        var element = String(appID.unicodeScalars.map { scalar -> Character in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
                ? Character(scalar) : "_"
        })
        if element.isEmpty { element = "app" }
        if element.first!.isNumber { element = "_" + element }
        return "org.mpris.MediaPlayer2.\(element).instance\(pid)"
    }
}
