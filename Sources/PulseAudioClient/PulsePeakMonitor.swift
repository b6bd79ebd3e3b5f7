// SPDX-License-Identifier: Apache-2.0
import CPulse
import Glibc

/// How loud another client's playback stream is, read as the desktop's level meters read it: a record
/// stream on the sink input alone (`pa_stream_set_monitor_stream`), with the server's peak detection
/// (`PA_STREAM_PEAK_DETECT`): one float a reading, the loudest sample since the last, a few tens of
/// readings a second. Use it on the loop thread.
public final class PulsePeakMonitor: PulseOwnStream, @unchecked Sendable {
    /// Called with each reading, 0…1 (a hole in the data reads as 0).
    public var onPeak: ((Double) -> Void)?

    /// A monitor of the sink input `sinkInput`, `readingsPerSecond` readings a second.
    public init(context: PulseContext, sinkInput: UInt32, readingsPerSecond: UInt32, properties: [String: String])
        throws(PulseError)
    {
        let format = 1.littleEndian == 1 ? PA_SAMPLE_FLOAT32LE : PA_SAMPLE_FLOAT32BE
        try super.init(context: context, name: "peak of \(sinkInput)",
                       spec: pa_sample_spec(format: format, rate: readingsPerSecond, channels: 1), properties: properties)
        let result = pa_stream_set_monitor_stream(pointer, sinkInput)
        if result < 0 { throw PulseError(code: -result, operation: "monitor stream") }
        pa_stream_set_read_callback(pointer, { _, _, userdata in
            Unmanaged<PulsePeakMonitor>.fromOpaque(userdata!).takeUnretainedValue().read()
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        pa_stream_set_read_callback(pointer, nil, nil)
    }

    /// Connects: one reading a fragment, from the monitor of the sink the stream plays on.
    public func connect() throws(PulseError) {
        var attributes = pa_buffer_attr(maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max, minreq: UInt32.max,
                                        fragsize: UInt32(MemoryLayout<Float>.size))
        let flags = pa_stream_flags_t(PA_STREAM_DONT_MOVE.rawValue | PA_STREAM_PEAK_DETECT.rawValue
            | PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_DONT_INHIBIT_AUTO_SUSPEND.rawValue)
        let result = pa_stream_connect_record(pointer, nil, &attributes, flags)
        if result < 0 { throw PulseError(code: -result, operation: "connect peak monitor") }
    }

    private func read() {
        while pa_stream_readable_size(pointer) > 0 {
            var data: UnsafeRawPointer?
            var size = 0
            guard pa_stream_peek(pointer, &data, &size) == 0 else { return }
            if size == 0 { return }
            var peak: Float = 0
            if let data {
                let samples = data.bindMemory(to: Float.self, capacity: size / 4)
                for index in 0..<(size / 4) { peak = max(peak, abs(samples[index])) }
            }
            pa_stream_drop(pointer)
            onPeak?(Double(peak))
        }
    }
}
