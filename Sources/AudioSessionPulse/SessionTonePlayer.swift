import AudioSessionKit
import Foundation
import PulseAudioClient

/// An app's own libpulse playback inside its audio session: its own loop and context, one stream that
/// carries the session's token and the session's buffer plan, playing a quiet tone. The examples use it.
public final class SessionTonePlayer: @unchecked Sendable {
    public let loop: PulseLoop
    public let session: AudioSession
    private var context: PulseContext?
    public private(set) var stream: PulsePlaybackStream?

    /// Connects to the sound server (`PULSE_SERVER` or libpulse's default) and waits until the
    /// stream plays, or throws.
    public init(session: AudioSession, appName: String, role: String? = nil) throws {
        self.session = session
        loop = try PulseLoop()
        loop.start()
        let plan = StreamBufferPlan(session: session)
        var properties = ["application.name": appName]
        if let token = session.streamToken { properties["audiosession.token"] = token }
        if let role { properties["media.role"] = role }
        let streamProperties = properties
        let ready = DispatchSemaphore(value: 0)
        let failure = FailureBox()
        loop.perform { [self] in
            do {
                let context = try PulseContext(loop: loop, name: appName, properties: streamProperties)
                self.context = context
                context.onStateChange = { [unowned self] state in
                    if state == .ready {
                        do {
                            let stream = try PulsePlaybackStream(context: context, name: "\(appName) tone",
                                                                 sampleRate: plan.sampleRate, channels: plan.channels,
                                                                 properties: streamProperties)
                            self.stream = stream
                            stream.onStateChange = { ok in
                                if !ok { failure.message = "the stream failed" }
                                ready.signal()
                            }
                            try stream.connect(bufferAttributes: plan.playbackAttributes)
                        } catch {
                            failure.message = "\(error)"
                            ready.signal()
                        }
                    } else if state.isFinal {
                        failure.message = "cannot reach the sound server: \(context.lastError)"
                        ready.signal()
                    }
                }
                try context.connect(server: ProcessInfo.processInfo.environment["PULSE_SERVER"])
            } catch {
                failure.message = "\(error)"
                ready.signal()
            }
        }
        guard ready.wait(timeout: .now() + 10) == .success else { throw PlayerError("the sound server did not answer") }
        if let message = failure.message { throw PlayerError(message) }
    }

    /// Pauses or resumes the tone, on the loop thread.
    public func setPaused(_ paused: Bool) {
        loop.perform { [self] in stream?.cork(paused) }
    }

    /// Stops the tone and waits until the server has let go of it.
    public func stop() {
        let done = DispatchSemaphore(value: 0)
        loop.perform { [self] in
            stream?.disconnect()
            context?.disconnect()
            done.signal()
        }
        done.wait()
    }

    private final class FailureBox: @unchecked Sendable { var message: String? }

    /// A player failure, with its reason.
    public struct PlayerError: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }
}
