// SPDX-License-Identifier: Apache-2.0
import CPulse
import Glibc

/// A playback stream of the app's own, playing a quiet tone: enough for examples and tests to make
/// real sound that the server can cork and uncork. Use it on the loop thread.
public final class PulsePlaybackStream: PulseOwnStream, @unchecked Sendable {
    /// One second of the tone's samples, computed once (a second holds whole periods of 440 Hz), and
    /// the frame the next write starts at: a stream costs a copy per write, not a sine per sample.
    private let tone: [Int16]
    private var position = 0

    /// Creates a stream (`pa_stream_new_with_proplist`) with 16-bit samples.
    public override init(context: PulseContext, name: String, sampleRate: UInt32, channels: UInt8,
                         properties: [String: String]) throws(PulseError) {
        tone = (0..<Int(sampleRate)).map { Int16(sin(2 * .pi * 440 * Double($0) / Double(sampleRate)) * 2000) }
        try super.init(context: context, name: name, sampleRate: sampleRate, channels: channels, properties: properties)
        pa_stream_set_write_callback(pointer, { _, bytes, userdata in
            Unmanaged<PulsePlaybackStream>.fromOpaque(userdata!).takeUnretainedValue().write(bytes)
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        pa_stream_set_write_callback(pointer, nil, nil)
    }

    /// Connects for playback (`pa_stream_connect_playback`) with the given buffer attributes; a stream
    /// that starts corked plays nothing until ``cork(_:)`` resumes it.
    public func connect(bufferAttributes: pa_buffer_attr?, device: String? = nil, startCorked: Bool = false) throws(PulseError) {
        var attributes = bufferAttributes ?? pa_buffer_attr()
        var flags = bufferAttributes == nil ? PA_STREAM_NOFLAGS.rawValue : PA_STREAM_ADJUST_LATENCY.rawValue
        if startCorked { flags |= PA_STREAM_START_CORKED.rawValue }
        let result = bufferAttributes == nil
            ? pa_stream_connect_playback(pointer, device, nil, pa_stream_flags_t(flags), nil, nil)
            : pa_stream_connect_playback(pointer, device, &attributes, pa_stream_flags_t(flags), nil, nil)
        if result < 0 { throw PulseError(code: -result, operation: "connect playback") }
    }

    /// Writes a quiet 440 Hz tone (`pa_stream_begin_write`, `pa_stream_write`).
    private func write(_ bytes: Int) {
        var data: UnsafeMutableRawPointer?
        var size = bytes
        guard pa_stream_begin_write(pointer, &data, &size) == 0, let data, size > 0 else { return }
        let channels = frameBytes / 2
        let frames = size / frameBytes
        let samples = data.bindMemory(to: Int16.self, capacity: frames * channels)
        for frame in 0..<frames {
            let value = tone[position]
            position = position + 1 == tone.count ? 0 : position + 1
            for channel in 0..<channels { samples[frame * channels + channel] = value }
        }
        pa_stream_write(pointer, data, frames * frameBytes, nil, 0, PA_SEEK_RELATIVE)
    }
}
