// SPDX-License-Identifier: Apache-2.0
import AudioSessionKit
import Foundation
import PulseAudioClient

/// An app's own libpulse playback inside its audio session: its own loop and context, one stream that
/// carries the session's token and the session's buffer plan, playing a quiet tone. The examples use it.
public final class SessionTonePlayer: @unchecked Sendable {
    public let session: AudioSession
    public var loop: PulseLoop { client.loop }
    public private(set) var stream: PulsePlaybackStream?
    private var client: SessionPulseClient!

    /// Connects to the sound server (`PULSE_SERVER` or libpulse's default) and waits until the
    /// stream plays, or throws.
    public init(session: AudioSession, appName: String, role: String? = nil) throws {
        self.session = session
        let plan = StreamBufferPlan(session: session)
        client = try SessionPulseClient(session: session, appName: appName, role: role) { [unowned self] context, properties, ready in
            let stream = try PulsePlaybackStream(context: context, name: "\(appName) tone", sampleRate: plan.sampleRate,
                                                 channels: plan.channels, properties: properties)
            self.stream = stream
            stream.onStateChange = ready
            try stream.connect(bufferAttributes: plan.playbackAttributes)
        }
    }

    /// Pauses or resumes the tone, on the loop thread.
    public func setPaused(_ paused: Bool) {
        loop.perform { [self] in stream?.cork(paused) }
    }

    /// Stops the tone and waits until the server has let go of it.
    public func stop() {
        client.stop { [self] in stream?.disconnect() }
    }
}

/// An app's own libpulse recording inside its audio session: like ``SessionTonePlayer``, one record
/// stream from the server's input (or `device`) with the session's token and buffer plan, read and
/// measured, and a ``SessionRecordController`` that pauses it on interruptions. The voip-call example
/// speaks with a tone player and listens with it.
public final class SessionRecorder: @unchecked Sendable {
    public let session: AudioSession
    public var loop: PulseLoop { client.loop }
    public private(set) var stream: PulseRecordStream?
    public private(set) var controller: SessionRecordController?
    private var client: SessionPulseClient!

    /// Connects and waits until the recording runs, or throws.
    public init(session: AudioSession, appName: String, role: String? = nil, device: String? = nil) throws {
        self.session = session
        let plan = StreamBufferPlan(session: session)
        client = try SessionPulseClient(session: session, appName: appName, role: role) { [unowned self] context, properties, ready in
            let stream = try PulseRecordStream(context: context, name: "\(appName) input", sampleRate: plan.sampleRate,
                                               channels: plan.channels, properties: properties)
            self.stream = stream
            stream.onStateChange = ready
            try stream.connect(bufferAttributes: plan.recordAttributes, device: device)
        }
        controller = SessionRecordController(session: session, stream: stream!, loop: client.loop)
    }

    /// Frames read so far (read on the loop thread).
    public var framesRead: Int {
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        loop.perform { [self] in
            box.value = stream?.framesRead ?? 0
            done.signal()
        }
        done.wait()
        return box.value
    }

    /// Stops the recording and waits until the server has let go of it.
    public func stop() {
        client.stop { [self] in stream?.disconnect() }
    }

    private final class Box: @unchecked Sendable { var value = 0 }
}
