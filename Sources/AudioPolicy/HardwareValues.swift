// SPDX-License-Identifier: Apache-2.0
/// The hardware values a session reports, read from its route's devices.
public struct HardwareValues: Hashable, Sendable {
    public var sampleRate: Double
    /// Seconds.
    public var outputLatency: Double
    /// Seconds.
    public var inputLatency: Double
    /// Seconds.
    public var ioBufferDuration: Double
    /// The output device's volume, 0…1 (0 when muted).
    public var outputVolume: Double
    public var outputChannels: Int
    public var inputChannels: Int
}

/// The accepted ranges of the preferred values (hints).
public enum HardwareHints {
    /// Hertz, or 0 to clear.
    public static let sampleRates: ClosedRange<Double> = 0...768_000
    /// Seconds, or 0 to clear.
    public static let ioBufferDurations: ClosedRange<Double> = 0...1
}
