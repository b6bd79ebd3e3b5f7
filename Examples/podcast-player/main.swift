// SPDX-License-Identifier: Apache-2.0
// podcast-player: a background player as the AVFoundation guide's "Controlling Background Audio"
// describes it. It plays an episode through libpulse (a tone stands in for speech), takes remote
// commands (play, pause, toggle, skip 15 s, jump to a position) from the desktop's media controls and
// playerctl, publishes what it plays with artwork, pauses when interrupted and resumes on
// shouldResume, and pauses when its headphones go. It prints what happens.
import AudioSessionKit
import AudioSessionPulse
import Foundation
import MediaPlayerKit

/// Prints a line at once (output may be a pipe).
func say(_ line: String) { FileHandle.standardOutput.write(Data(("podcast-player: " + line + "\n").utf8)) }

/// The episode being played and where playback stands; changed on the main queue only.
final class Episode: @unchecked Sendable {
    let title = "Episode 12: Sessions on Linux"
    let show = "The Audio Hour"
    let duration = 1800.0
    private let tone: SessionTonePlayer
    private(set) var isPlaying = false
    private var elapsedAtStart = 0.0
    private var startedAt = Date()

    init(tone: SessionTonePlayer) { self.tone = tone }

    var elapsed: Double { min(duration, elapsedAtStart + (isPlaying ? Date().timeIntervalSince(startedAt) : 0)) }

    func play() {
        guard !isPlaying else { return }
        elapsedAtStart = elapsed
        startedAt = Date()
        isPlaying = true
        tone.setPaused(false)
        publish()
    }

    func pause() {
        guard isPlaying else { return }
        elapsedAtStart = elapsed
        isPlaying = false
        tone.setPaused(true)
        publish()
    }

    func seek(to seconds: Double) {
        elapsedAtStart = max(0, min(duration, seconds))
        startedAt = Date()
        publish()
    }

    /// The now-playing info, with the elapsed time and rate from which the position advances.
    func publish() {
        let center = NowPlayingInfoCenter.default()
        var info: [String: Any] = [
            MediaItemPropertyTitle: title, MediaItemPropertyArtist: show, MediaItemPropertyAlbumTitle: "Season 2",
            MediaItemPropertyPlaybackDuration: duration, NowPlayingInfoPropertyElapsedPlaybackTime: elapsed,
            NowPlayingInfoPropertyPlaybackRate: isPlaying ? 1.0 : 0.0,
        ]
        info[MediaItemPropertyArtwork] = MediaItemArtwork(boundsSize: CGSize(width: 1, height: 1)) { _ in Artwork.png }
        center.nowPlayingInfo = info
        center.playbackState = isPlaying ? .playing : .paused
    }
}

/// A 1×1 PNG as the cover.
enum Artwork {
    static let png = Data(base64Encoded:
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")!
}

let session = AudioSession.sharedInstance()
do {
    try session.setCategory(.playback, mode: .spokenAudio, options: [])
    try session.setActive(true)
    let tone = try SessionTonePlayer(session: session, appName: "podcast-player")
    let episode = Episode(tone: tone)

    // Remote commands, as the guide's setupRemoteTransportControls.
    let commands = RemoteCommandCenter.shared()
    commands.playCommand.addTarget { _ in
        say("remote play")
        episode.play()
        return .success
    }
    commands.pauseCommand.addTarget { _ in
        say("remote pause")
        episode.pause()
        return .success
    }
    commands.togglePlayPauseCommand.addTarget { _ in
        say("remote toggle")
        if episode.isPlaying { episode.pause() } else { episode.play() }
        return .success
    }
    commands.skipForwardCommand.preferredIntervals = [15]
    commands.skipForwardCommand.addTarget { event in
        let interval = (event as? SkipIntervalCommandEvent)?.interval ?? 15
        say("remote skip forward \(interval)")
        episode.seek(to: episode.elapsed + interval)
        return .success
    }
    commands.skipBackwardCommand.preferredIntervals = [15]
    commands.skipBackwardCommand.addTarget { event in
        let interval = (event as? SkipIntervalCommandEvent)?.interval ?? 15
        say("remote skip backward \(interval)")
        episode.seek(to: episode.elapsed - interval)
        return .success
    }
    commands.changePlaybackPositionCommand.addTarget { event in
        guard let event = event as? ChangePlaybackPositionCommandEvent else { return .commandFailed }
        say("remote position \(event.positionTime)")
        episode.seek(to: event.positionTime)
        return .success
    }

    // Interruptions and route changes, as the guide handles them.
    let center = NotificationCenter.default
    _ = center.addObserver(forName: AudioSession.interruptionNotification, object: session, queue: .main) { note in
        guard let raw = note.userInfo?[AudioSessionInterruptionTypeKey] as? UInt,
            let type = AudioSession.InterruptionType(rawValue: raw)
        else { return }
        switch type {
        case .began:
            say("interruption began")
            episode.pause()
        case .ended:
            let options = AudioSession.InterruptionOptions(rawValue: note.userInfo?[AudioSessionInterruptionOptionKey] as? UInt ?? 0)
            say("interruption ended\(options.contains(.shouldResume) ? " with shouldResume" : "")")
            if options.contains(.shouldResume) { episode.play() }
        @unknown default: break
        }
    }
    _ = center.addObserver(forName: AudioSession.routeChangeNotification, object: session, queue: .main) { note in
        let reason = (note.userInfo?[AudioSessionRouteChangeReasonKey] as? UInt).flatMap(AudioSession.RouteChangeReason.init)
        guard reason == .oldDeviceUnavailable else { return }
        say("the headphones went away: paused")
        episode.pause()
    }

    DispatchQueue.main.async {
        episode.play()
        say("playing \(episode.title)")
    }
    withExtendedLifetime((tone, episode)) { dispatchMain() }
} catch {
    FileHandle.standardError.write(Data("podcast-player: \(error)\n".utf8))
    exit(1)
}
