// SPDX-License-Identifier: Apache-2.0
import CPulse
import Glibc

/// An app's own stream (`pa_stream`), 16-bit samples: what playback and record streams share —
/// creation with a property list, the state callback, cork and disconnect. Use it on the loop thread.
public class PulseOwnStream: @unchecked Sendable {
    let pointer: OpaquePointer
    /// Bytes per frame.
    let frameBytes: Int
    /// Called when the stream is ready (true) or failed or ended (false).
    public var onStateChange: ((Bool) -> Void)?

    /// Creates a stream (`pa_stream_new_with_proplist`) with 16-bit samples.
    init(context: PulseContext, name: String, sampleRate: UInt32, channels: UInt8,
         properties: [String: String]) throws(PulseError) {
        pointer = try Self.make(context, name, pa_sample_spec(format: PA_SAMPLE_S16LE, rate: sampleRate, channels: channels),
                                properties)
        frameBytes = 2 * Int(channels)
        followState()
    }

    /// Creates a stream (`pa_stream_new_with_proplist`) of `spec`.
    init(context: PulseContext, name: String, spec: pa_sample_spec, properties: [String: String]) throws(PulseError) {
        pointer = try Self.make(context, name, spec, properties)
        var copy = spec
        frameBytes = pa_frame_size(&copy)
        followState()
    }

    private static func make(_ context: PulseContext, _ name: String, _ spec: pa_sample_spec,
                             _ properties: [String: String]) throws(PulseError) -> OpaquePointer {
        var spec = spec
        let list = pa_proplist_new()
        defer { pa_proplist_free(list) }
        for (key, value) in properties { pa_proplist_sets(list, key, value) }
        guard let stream = pa_stream_new_with_proplist(context.pointer, name, &spec, nil, list) else {
            throw PulseError.fromContext(context.pointer, "create stream")
        }
        return stream
    }

    private func followState() {
        pa_stream_set_state_callback(pointer, { stream, userdata in
            let this = Unmanaged<PulseOwnStream>.fromOpaque(userdata!).takeUnretainedValue()
            switch pa_stream_get_state(stream) {
            case PA_STREAM_READY: this.onStateChange?(true)
            case PA_STREAM_FAILED, PA_STREAM_TERMINATED: this.onStateChange?(false)
            default: break
            }
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        pa_stream_set_state_callback(pointer, nil, nil)
        pa_stream_unref(pointer)
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
}
