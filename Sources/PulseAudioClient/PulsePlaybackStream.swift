import CPulse
import Glibc

/// A playback stream of the app's own (`pa_stream`), playing a quiet tone: enough for examples and
/// tests to make real sound that the server can cork and uncork. Use it on the loop thread.
public final class PulsePlaybackStream: @unchecked Sendable {
    let pointer: OpaquePointer
    private let channels: UInt8
    /// One second of the tone's samples, computed once (a second holds whole periods of 440 Hz), and
    /// the frame the next write starts at: a stream costs a copy per write, not a sine per sample.
    private let tone: [Int16]
    private var position = 0
    /// Called when the stream is ready or failed.
    public var onStateChange: ((Bool) -> Void)?

    /// Creates a stream (`pa_stream_new_with_proplist`) with 16-bit samples.
    public init(context: PulseContext, name: String, sampleRate: UInt32, channels: UInt8,
                properties: [String: String]) throws(PulseError) {
        var spec = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: sampleRate, channels: channels)
        let list = pa_proplist_new()
        defer { pa_proplist_free(list) }
        for (key, value) in properties { pa_proplist_sets(list, key, value) }
        guard let stream = pa_stream_new_with_proplist(context.pointer, name, &spec, nil, list) else {
            throw PulseError.fromContext(context.pointer, "create stream")
        }
        pointer = stream
        self.channels = channels
        tone = (0..<Int(sampleRate)).map { Int16(sin(2 * .pi * 440 * Double($0) / Double(sampleRate)) * 2000) }
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_stream_set_write_callback(stream, { stream, bytes, userdata in
            Unmanaged<PulsePlaybackStream>.fromOpaque(userdata!).takeUnretainedValue().write(bytes)
        }, me)
        pa_stream_set_state_callback(stream, { stream, userdata in
            let this = Unmanaged<PulsePlaybackStream>.fromOpaque(userdata!).takeUnretainedValue()
            switch pa_stream_get_state(stream) {
            case PA_STREAM_READY: this.onStateChange?(true)
            case PA_STREAM_FAILED, PA_STREAM_TERMINATED: this.onStateChange?(false)
            default: break
            }
        }, me)
    }

    deinit {
        pa_stream_set_write_callback(pointer, nil, nil)
        pa_stream_set_state_callback(pointer, nil, nil)
        pa_stream_unref(pointer)
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

    /// Pauses or resumes the stream (`pa_stream_cork`).
    public func cork(_ corked: Bool) {
        if let operation = pa_stream_cork(pointer, corked ? 1 : 0, nil, nil) { pa_operation_unref(operation) }
    }

    /// Whether the stream is paused (`pa_stream_is_corked`).
    public var isCorked: Bool { pa_stream_is_corked(pointer) == 1 }

    /// Whether the server has answered the connection (`pa_stream_get_state` is `PA_STREAM_READY`).
    public var isReady: Bool { pa_stream_get_state(pointer) == PA_STREAM_READY }

    /// Ends the stream (`pa_stream_disconnect`).
    public func disconnect() { pa_stream_disconnect(pointer) }

    /// Writes a quiet 440 Hz tone (`pa_stream_begin_write`, `pa_stream_write`).
    private func write(_ bytes: Int) {
        var data: UnsafeMutableRawPointer?
        var size = bytes
        guard pa_stream_begin_write(pointer, &data, &size) == 0, let data, size > 0 else { return }
        let frames = size / (2 * Int(channels))
        let samples = data.bindMemory(to: Int16.self, capacity: frames * Int(channels))
        for frame in 0..<frames {
            let value = tone[position]
            position = position + 1 == tone.count ? 0 : position + 1
            for channel in 0..<Int(channels) { samples[frame * Int(channels) + channel] = value }
        }
        pa_stream_write(pointer, data, frames * 2 * Int(channels), nil, 0, PA_SEEK_RELATIVE)
    }
}
