// SPDX-License-Identifier: Apache-2.0
// music-player: a playback app. It pauses when interrupted and resumes on shouldResume, pauses when
// the headphones go away, and prints what happens.
import AudioSessionKit
import AudioSessionPulse
import Foundation

/// Prints a line at once (output may be a pipe).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

let session = AudioSession.sharedInstance()
do {
    try session.setCategory(.playback, mode: .default, options: [])
    try session.setActive(true)
    let player = try SessionTonePlayer(session: session, appName: "music-player")
    let controller = SessionStreamController(session: session, stream: player.stream!, loop: player.loop)
    controller.onAction = { say("music-player: \($0)") }
    let center = NotificationCenter.default
    _ = center.addObserver(forName: AudioSession.mediaServicesWereLostNotification, object: session, queue: nil) { _ in
        say("music-player: media services were lost")
    }
    _ = center.addObserver(forName: AudioSession.mediaServicesWereResetNotification, object: session, queue: nil) { _ in
        say("music-player: media services were reset; category \(session.category)")
    }
    _ = center.addObserver(forName: AudioSession.routeChangeNotification, object: session, queue: nil) { note in
        let reason = (note.userInfo?[AudioSessionRouteChangeReasonKey] as? UInt).flatMap(AudioSession.RouteChangeReason.init)
        say("music-player: route changed (\(reason.map { "\($0)" } ?? "?"))")
    }
    say("music-player: playing")
    withExtendedLifetime((player, controller)) { dispatchMain() }
} catch {
    FileHandle.standardError.write(Data("music-player: \(error)\n".utf8))
    exit(1)
}
