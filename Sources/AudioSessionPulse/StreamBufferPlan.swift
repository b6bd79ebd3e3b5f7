// SPDX-License-Identifier: Apache-2.0
import AudioSessionKit
import CPulse

/// Turns an audio session's preferred IO buffer duration and sample rate into what libpulse takes
/// for the app's own streams: a sample spec and `pa_buffer_attr`.
public struct StreamBufferPlan: Equatable, Sendable {
    public let sampleRate: UInt32
    public let channels: UInt8
    /// Bytes per frame (16-bit samples).
    public let frameSize: UInt32
    /// The target buffer length, in bytes.
    public let targetLength: UInt32
    /// How much the server asks for at a time, in bytes.
    public let minimumRequest: UInt32

    /// A plan from preferred values; 0 means "no preference" (48 kHz, 20 ms).
    public init(preferredSampleRate: Double, preferredIOBufferDuration: Double, channels: UInt8 = 2) {
        sampleRate = preferredSampleRate > 0 ? UInt32(preferredSampleRate.rounded()) : 48000
        self.channels = channels
        let duration = preferredIOBufferDuration > 0 ? preferredIOBufferDuration : 0.02
        let frames = max(1, UInt32((duration * Double(sampleRate)).rounded()))
        frameSize = UInt32(channels) * 2
        targetLength = frames * frameSize
        minimumRequest = max(frameSize, targetLength / 4)
    }

    /// The plan for a session's current preferences.
    public init(session: AudioSession, channels: UInt8 = 2) {
        self.init(preferredSampleRate: session.preferredSampleRate,
                  preferredIOBufferDuration: session.preferredIOBufferDuration, channels: channels)
    }

    /// The sample spec (`pa_sample_spec`, 16-bit little-endian).
    public var sampleSpec: pa_sample_spec { pa_sample_spec(format: PA_SAMPLE_S16LE, rate: sampleRate, channels: channels) }

    /// The buffer attributes for playback (`pa_buffer_attr`; maxlength and prebuf left to the server).
    public var playbackAttributes: pa_buffer_attr {
        pa_buffer_attr(maxlength: UInt32.max, tlength: targetLength, prebuf: UInt32.max, minreq: minimumRequest,
                       fragsize: UInt32.max)
    }

    /// The buffer attributes for recording (fragment size = the IO buffer).
    public var recordAttributes: pa_buffer_attr {
        pa_buffer_attr(maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max, minreq: UInt32.max,
                       fragsize: targetLength)
    }
}
