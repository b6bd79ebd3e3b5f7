// SPDX-License-Identifier: Apache-2.0
import AudioSessionKit
import Foundation
import PulseAudioClient

/// Does for an app's own libpulse playback stream what AVPlayer does by itself: corks it when an
/// interruption begins, reactivates the session and uncorks it when the interruption ends with
/// `shouldResume` (only if it was playing), and corks it when the route loses its headphones.
public final class SessionStreamController: @unchecked Sendable {
    public let session: AudioSession
    public let stream: PulsePlaybackStream
    public let loop: PulseLoop
    /// Told what the controller did and why ("playback paused: interruption began", …), on the loop thread.
    public var onAction: (String) -> Void {
        get { follower.onAction }
        set { follower.onAction = newValue }
    }
    private let follower: InterruptionFollower
    private var task: Task<Void, Never>?

    public init(session: AudioSession, stream: PulsePlaybackStream, loop: PulseLoop) {
        self.session = session
        self.stream = stream
        self.loop = loop
        follower = InterruptionFollower(session: session, stream: stream, loop: loop, noun: "playback")
        let changes = session.routeChanges()
        task = Task { [weak self] in
            for await change in changes { self?.handle(change) }
        }
    }

    deinit { task?.cancel() }

    private func handle(_ change: AudioSession.RouteChange) {
        guard change.reason == .oldDeviceUnavailable,
            change.previousRoute.outputs.contains(where: { $0.portType == .headphones || $0.portType.isBluetooth })
        else { return }
        loop.perform { [self] in
            stream.cork(true)
            onAction("playback paused: the headphones were removed")
        }
    }
}

/// Does for an app's own libpulse record stream what AVAudioRecorder does by itself: pauses the
/// recording when an interruption begins — a call, or the microphone muted (`builtInMicMuted`) — and
/// resumes it when the interruption ends with `shouldResume`, if it was recording.
public final class SessionRecordController: @unchecked Sendable {
    public let session: AudioSession
    public let stream: PulseRecordStream
    /// Told what the controller did and why ("recording paused: interruption began (builtInMicMuted)").
    public var onAction: (String) -> Void {
        get { follower.onAction }
        set { follower.onAction = newValue }
    }
    private let follower: InterruptionFollower

    public init(session: AudioSession, stream: PulseRecordStream, loop: PulseLoop) {
        self.session = session
        self.stream = stream
        follower = InterruptionFollower(session: session, stream: stream, loop: loop, noun: "recording")
    }
}
