// SPDX-License-Identifier: Apache-2.0
/// Options that refine a category (`AVAudioSession.CategoryOptions`).
public struct CategoryOptions: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt

    public init(rawValue: UInt) { self.rawValue = rawValue }

    // Apple's bit values.
    public static let mixWithOthers = CategoryOptions(rawValue: 0x1)
    public static let duckOthers = CategoryOptions(rawValue: 0x2)
    public static let allowBluetooth = CategoryOptions(rawValue: 0x4)
    public static let defaultToSpeaker = CategoryOptions(rawValue: 0x8)
    public static let interruptSpokenAudioAndMixWithOthers = CategoryOptions(rawValue: 0x11)
    public static let allowBluetoothA2DP = CategoryOptions(rawValue: 0x20)
    public static let allowAirPlay = CategoryOptions(rawValue: 0x40)
    public static let overrideMutedMicrophoneInterruption = CategoryOptions(rawValue: 0x80)

    /// Every option with its string, in a fixed order. `interruptSpokenAudioAndMixWithOthers` holds
    /// the `mixWithOthers` bit too, as on Apple's platforms.
    public static let named: [(name: String, option: CategoryOptions)] = [
        ("mixWithOthers", .mixWithOthers),
        ("duckOthers", .duckOthers),
        ("interruptSpokenAudioAndMixWithOthers", .interruptSpokenAudioAndMixWithOthers),
        ("allowBluetooth", .allowBluetooth),
        ("allowBluetoothA2DP", .allowBluetoothA2DP),
        ("allowAirPlay", .allowAirPlay),
        ("defaultToSpeaker", .defaultToSpeaker),
        ("overrideMutedMicrophoneInterruption", .overrideMutedMicrophoneInterruption),
    ]

    /// The bits of one option that are its own (without what it implies).
    private static let ownBits: [(name: String, bits: UInt)] = named.map {
        ($0.name, $0.option == .interruptSpokenAudioAndMixWithOthers ? 0x10 : $0.option.rawValue)
    }

    /// Parses option strings, refusing an unknown one with ``ErrorCode/badParam``.
    public static func parse(_ names: [String]) throws(AudioSessionError) -> CategoryOptions {
        var options: CategoryOptions = []
        for name in names {
            guard let entry = named.first(where: { $0.name == name }) else {
                throw AudioSessionError(.badParam, "unknown category option '\(name)'; expected one of: \(spellings)")
            }
            options.insert(entry.option)
        }
        return options
    }

    /// Every option's string, comma-separated, for help texts and error messages.
    public static var spellings: String { named.map(\.name).joined(separator: ", ") }

    /// The option strings of the set, in a fixed order.
    public var names: [String] {
        Self.ownBits.filter { rawValue & $0.bits == $0.bits }.map(\.name)
    }

    public var description: String { "[" + names.joined(separator: ", ") + "]" }
}
