// SPDX-License-Identifier: Apache-2.0
/// A stream's or device's volume, one raw sound-server value per channel (`pa_cvolume`):
/// `0x10000` is 100 %, 0 is silence. Kept raw so that a restored volume is exactly the original.
public struct ChannelVolumes: Hashable, Sendable, CustomStringConvertible {
    /// The raw value of 100 % (`PA_VOLUME_NORM`).
    public static let norm: UInt32 = 0x10000

    public var values: [UInt32]

    public init(_ values: [UInt32]) { self.values = values }

    /// Every channel at the same raw value.
    public init(channels: Int, value: UInt32) { values = Array(repeating: value, count: channels) }

    /// Whether `volume` lies on the way from this volume to `other`, on every channel, ends included:
    /// where a fade between them may have stopped.
    public func spans(_ volume: ChannelVolumes, to other: ChannelVolumes) -> Bool {
        guard volume.values.count == values.count, other.values.count == values.count else { return false }
        return values.indices.allSatisfy {
            (Swift.min(values[$0], other.values[$0])...Swift.max(values[$0], other.values[$0])).contains(volume.values[$0])
        }
    }

    /// How close two volumes must be for a server's memory to keep one for the other: WirePlumber 0.5
    /// saves a stream's volume only when it differs from the saved one at four decimals of the linear
    /// (cubed) volume, so a level within that of one it saved comes back as the saved one.
    public static let memoryPrecision = 0.0001

    /// Whether a server's memory may give `volume` back for this volume (or this one for it): every
    /// channel's linear volume within ``memoryPrecision``.
    public func isRemembered(as volume: ChannelVolumes) -> Bool {
        guard volume.values.count == values.count else { return false }
        func linear(_ raw: UInt32) -> Double {
            let fraction = Double(raw) / Double(Self.norm)
            return fraction * fraction * fraction
        }
        return zip(values, volume.values).allSatisfy { abs(linear($0) - linear($1)) < Self.memoryPrecision }
    }

    /// Every channel scaled by `factor` (0…1), rounded down.
    public func scaled(by factor: Double) -> ChannelVolumes {
        let clamped = min(1, max(0, factor))
        return ChannelVolumes(values.map { UInt32((Double($0) * clamped).rounded(.down)) })
    }

    /// The point `fraction` (0…1) of the way from this volume to `target`, channel by channel.
    public func interpolated(to target: ChannelVolumes, fraction: Double) -> ChannelVolumes {
        guard target.values.count == values.count else { return fraction >= 1 ? target : self }
        let f = min(1, max(0, fraction))
        return ChannelVolumes(zip(values, target.values).map { from, to in
            UInt32((Double(from) + (Double(to) - Double(from)) * f).rounded())
        })
    }

    /// The loudest channel as a fraction of 100 %.
    public var level: Double { Double(values.max() ?? 0) / Double(Self.norm) }

    public var description: String { values.map { "\($0 * 100 / Self.norm)%" }.joined(separator: "/") }
}

/// The two things the bridge may change on a stream: its volume and its mute.
public struct StreamLevels: Hashable, Sendable, CustomStringConvertible {
    public var volume: ChannelVolumes
    public var mute: Bool

    public init(volume: ChannelVolumes, mute: Bool) {
        self.volume = volume
        self.mute = mute
    }

    public var description: String { "\(volume)\(mute ? " muted" : "")" }
}
