import AudioSessionKit
import Foundation
import PulseAudioClient

/// Does for an app's own libpulse stream what AVPlayer does by itself: corks it when an interruption
/// begins, reactivates the session and uncorks it when the interruption ends with `shouldResume`
/// (only if it was playing), and corks it when the route loses its headphones.
public final class SessionStreamController: @unchecked Sendable {
    public let session: AudioSession
    public let stream: PulsePlaybackStream
    public let loop: PulseLoop
    /// Told what the controller did and why ("paused: interruption began", …), on the loop thread.
    public var onAction: (String) -> Void = { _ in }
    private var wasPlayingAtInterruption = false
    private var tasks: [Task<Void, Never>] = []

    public init(session: AudioSession, stream: PulsePlaybackStream, loop: PulseLoop) {
        self.session = session
        self.stream = stream
        self.loop = loop
        tasks.append(Task { [weak self, session] in
            for await interruption in session.interruptions() { self?.handle(interruption) }
        })
        tasks.append(Task { [weak self, session] in
            for await change in session.routeChanges() { self?.handle(change) }
        })
    }

    deinit { tasks.forEach { $0.cancel() } }

    private func onLoop(_ body: @escaping @Sendable () -> Void) { loop.perform(body) }

    private func handle(_ interruption: AudioSession.Interruption) {
        // Resuming takes the audio back first, as the guide says: activate, then play.
        if interruption.type == .ended && interruption.options.contains(.shouldResume) {
            try? session.setActive(true)
        }
        onLoop { [self] in
            switch interruption.type {
            case .began:
                wasPlayingAtInterruption = !stream.isCorked
                stream.cork(true)
                onAction("paused: interruption began")
            case .ended:
                if interruption.options.contains(.shouldResume) && wasPlayingAtInterruption {
                    stream.cork(false)
                    onAction("resumed: interruption ended with shouldResume")
                } else {
                    onAction("stays paused: interruption ended without shouldResume")
                }
                wasPlayingAtInterruption = false
            }
        }
    }

    private func handle(_ change: AudioSession.RouteChange) {
        guard change.reason == .oldDeviceUnavailable,
            change.previousRoute.outputs.contains(where: { $0.portType == .headphones || $0.portType.isBluetooth })
        else { return }
        onLoop { [self] in
            stream.cork(true)
            onAction("paused: the headphones were removed")
        }
    }
}
