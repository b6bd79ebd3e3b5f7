// SPDX-License-Identifier: Apache-2.0
import CPulse
import Glibc

/// A record stream of the app's own: it reads what the server captures and keeps how much it read
/// and how loud it was, enough for examples and tests to record for real from a source the server
/// can cork and mute. Use it on the loop thread.
public final class PulseRecordStream: PulseOwnStream, @unchecked Sendable {
    /// Frames read since the stream connected.
    public private(set) var framesRead = 0
    /// The loudest sample of the last read fragment, 0…1.
    public private(set) var lastPeak = 0.0

    /// Creates a stream (`pa_stream_new_with_proplist`) with 16-bit samples.
    public override init(context: PulseContext, name: String, sampleRate: UInt32, channels: UInt8,
                         properties: [String: String]) throws(PulseError) {
        try super.init(context: context, name: name, sampleRate: sampleRate, channels: channels, properties: properties)
        pa_stream_set_read_callback(pointer, { _, _, userdata in
            Unmanaged<PulseRecordStream>.fromOpaque(userdata!).takeUnretainedValue().read()
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        pa_stream_set_read_callback(pointer, nil, nil)
    }

    /// Connects for recording (`pa_stream_connect_record`) from `device` (nil: the server's choice).
    public func connect(bufferAttributes: pa_buffer_attr?, device: String? = nil) throws(PulseError) {
        var attributes = bufferAttributes ?? pa_buffer_attr()
        let result = bufferAttributes == nil
            ? pa_stream_connect_record(pointer, device, nil, PA_STREAM_NOFLAGS)
            : pa_stream_connect_record(pointer, device, &attributes, PA_STREAM_ADJUST_LATENCY)
        if result < 0 { throw PulseError(code: -result, operation: "connect record") }
    }

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
