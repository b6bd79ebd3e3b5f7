// SPDX-License-Identifier: Apache-2.0
/// A point on the shell's monotonic clock. The engine never reads a clock: time arrives with each event.
public struct EngineTime: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds since an arbitrary origin chosen by the shell.
    public var nanoseconds: UInt64

    public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    /// The origin.
    public static let zero = EngineTime(nanoseconds: 0)

    /// A time given in milliseconds since the origin.
    public static func milliseconds(_ value: UInt64) -> EngineTime { EngineTime(nanoseconds: value * 1_000_000) }

    public static func < (lhs: EngineTime, rhs: EngineTime) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    public static func + (lhs: EngineTime, rhs: Duration) -> EngineTime {
        EngineTime(nanoseconds: lhs.nanoseconds &+ rhs.wholeNanoseconds)
    }

    /// The time elapsed from `earlier` to this one (zero if `earlier` is later).
    public func since(_ earlier: EngineTime) -> Duration {
        .nanoseconds(Int64(nanoseconds > earlier.nanoseconds ? nanoseconds - earlier.nanoseconds : 0))
    }

    public var description: String { "t+\(nanoseconds / 1_000_000)ms" }
}

extension Duration {
    /// The duration in whole nanoseconds, negative durations counting as zero.
    public var wholeNanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        return UInt64(seconds) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }
}
