import CPulse
import Glibc

/// A record stream of the app's own (`pa_stream`), 16-bit samples: it reads what the server captures
/// and keeps how much it read and how loud it was, enough for examples and tests to record for real
/// from a source the server can cork and mute. Use it on the loop thread.
public final class PulseRecordStream: @unchecked Sendable {
    let pointer: OpaquePointer
    private let frameBytes: Int
    /// Frames read since the stream connected.
    public private(set) var framesRead = 0
    /// The loudest sample of the last read fragment, 0…1.
    public private(set) var lastPeak = 0.0
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
        frameBytes = 2 * Int(channels)
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_stream_set_read_callback(stream, { _, _, userdata in
            Unmanaged<PulseRecordStream>.fromOpaque(userdata!).takeUnretainedValue().read()
        }, me)
        pa_stream_set_state_callback(stream, { stream, userdata in
            let this = Unmanaged<PulseRecordStream>.fromOpaque(userdata!).takeUnretainedValue()
            switch pa_stream_get_state(stream) {
            case PA_STREAM_READY: this.onStateChange?(true)
            case PA_STREAM_FAILED, PA_STREAM_TERMINATED: this.onStateChange?(false)
            default: break
            }
        }, me)
    }

    deinit {
        pa_stream_set_read_callback(pointer, nil, nil)
        pa_stream_set_state_callback(pointer, nil, nil)
        pa_stream_unref(pointer)
    }

    /// Connects for recording (`pa_stream_connect_record`) from `device` (nil: the server's choice).
    public func connect(bufferAttributes: pa_buffer_attr?, device: String? = nil) throws(PulseError) {
        var attributes = bufferAttributes ?? pa_buffer_attr()
        let result = bufferAttributes == nil
            ? pa_stream_connect_record(pointer, device, nil, PA_STREAM_NOFLAGS)
            : pa_stream_connect_record(pointer, device, &attributes, PA_STREAM_ADJUST_LATENCY)
        if result < 0 { throw PulseError(code: -result, operation: "connect record") }
    }

    /// Pauses or resumes the recording (`pa_stream_cork`).
    public func cork(_ corked: Bool) {
        if let operation = pa_stream_cork(pointer, corked ? 1 : 0, nil, nil) { pa_operation_unref(operation) }
    }

    /// Whether the recording is paused (`pa_stream_is_corked`).
    public var isCorked: Bool { pa_stream_is_corked(pointer) == 1 }

    /// Ends the stream (`pa_stream_disconnect`).
    public func disconnect() { pa_stream_disconnect(pointer) }

    /// Takes every captured fragment (`pa_stream_peek`, `pa_stream_drop`); a hole counts as silence.
    private func read() {
        while pa_stream_readable_size(pointer) > 0 {
            var data: UnsafeRawPointer?
            var size = 0
            guard pa_stream_peek(pointer, &data, &size) == 0, size > 0 else { return }
            var peak: Int32 = 0
            if let data {
                let samples = data.bindMemory(to: Int16.self, capacity: size / 2)
                for index in 0..<(size / 2) { peak = max(peak, abs(Int32(samples[index]))) }
            }
            lastPeak = Double(peak) / Double(Int16.max)
            framesRead += size / frameBytes
            pa_stream_drop(pointer)
        }
    }
}
