// SPDX-License-Identifier: Apache-2.0
import AudioSessionKit
import PulseAudioClient

/// What AVPlayer and AVAudioRecorder do by themselves on interruptions: pause a stream when an
/// interruption begins (whatever its reason: a call, the microphone muted) and, when it ends with
/// `shouldResume`, reactivate the session and resume the stream if it was running. A session
/// suspended by sleep (`appWasSuspended`) is activated again and the stream left running.
final class InterruptionFollower: @unchecked Sendable {
    let session: AudioSession
    let stream: PulseOwnStream
    let loop: PulseLoop
    /// "playback" or "recording", for the lines it reports.
    let noun: String
    var onAction: (String) -> Void = { _ in }
    private var wasRunningAtInterruption = false
    private var task: Task<Void, Never>?

    init(session: AudioSession, stream: PulseOwnStream, loop: PulseLoop, noun: String) {
        self.session = session
        self.stream = stream
        self.loop = loop
        self.noun = noun
        let interruptions = session.interruptions()
        task = Task { [weak self] in
            for await interruption in interruptions { self?.handle(interruption) }
        }
    }

    deinit { task?.cancel() }

    private func handle(_ interruption: AudioSession.Interruption) {
        if interruption.type == .began && interruption.reason == .appWasSuspended {
            // The machine slept; no one else took the audio: activate again and go on as before.
            let active = (try? session.setActive(true)) != nil
            loop.perform { [self] in
                onAction("\(noun) goes on: the session was suspended by sleep\(active ? " and is active again" : "")")
            }
            return
        }
        // Resuming takes the audio back first, as the guide says: activate, then resume.
        if interruption.type == .ended && interruption.options.contains(.shouldResume) {
            try? session.setActive(true)
        }
        let reason = interruption.reason == .default ? "" : " (\(interruption.reason.name))"
        loop.perform { [self] in
            switch interruption.type {
            case .began:
                wasRunningAtInterruption = !stream.isCorked
                stream.cork(true)
                onAction("\(noun) paused: interruption began\(reason)")
            case .ended:
                if interruption.options.contains(.shouldResume) && wasRunningAtInterruption {
                    stream.cork(false)
                    onAction("\(noun) resumed: interruption ended with shouldResume\(reason)")
                } else {
                    onAction("\(noun) stays paused: interruption ended without shouldResume\(reason)")
                }
                wasRunningAtInterruption = false
            }
        }
    }
}

extension AudioSession.InterruptionReason {
    /// Apple's name of the reason (`builtInMicMuted`).
    var name: String {
        switch self {
        case .default: "default"
        case .appWasSuspended: "appWasSuspended"
        case .builtInMicMuted: "builtInMicMuted"
        case .routeDisconnected: "routeDisconnected"
        }
    }
}
