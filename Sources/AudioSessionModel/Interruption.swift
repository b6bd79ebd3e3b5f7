// SPDX-License-Identifier: Apache-2.0
/// Whether an interruption begins or ends (`AVAudioSession.InterruptionType`).
public enum InterruptionType: String, VocabularyWord {
    case began
    case ended

    public static let vocabularyName = "interruption type"

    /// Apple's raw value: began 1, ended 0.
    public var appleValue: UInt { self == .began ? 1 : 0 }
}

/// Options delivered with an ended interruption (`AVAudioSession.InterruptionOptions`).
public struct InterruptionOptions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// The app may resume playback.
    public static let shouldResume = InterruptionOptions(rawValue: 1)

    /// Parses option strings, refusing an unknown one with ``ErrorCode/badParam``.
    public static func parse(_ names: [String]) throws(AudioSessionError) -> InterruptionOptions {
        var options: InterruptionOptions = []
        for name in names {
            guard name == "shouldResume" else {
                throw AudioSessionError(.badParam, "unknown interruption option '\(name)'; expected: shouldResume")
            }
            options.insert(.shouldResume)
        }
        return options
    }

    /// The option strings.
    public var names: [String] { contains(.shouldResume) ? ["shouldResume"] : [] }
}

/// Why an interruption happened (`AVAudioSession.InterruptionReason`).
public enum InterruptionReason: String, VocabularyWord {
    case `default`
    case appWasSuspended
    case builtInMicMuted
    case routeDisconnected

    public static let vocabularyName = "interruption reason"

    /// Apple's raw value.
    public var appleValue: UInt {
        switch self {
        case .default: 0
        case .appWasSuspended: 1
        case .builtInMicMuted: 2
        case .routeDisconnected: 4
        }
    }
}

/// The secondary-audio hint (`AVAudioSession.SilenceSecondaryAudioHintType`).
public enum SilenceSecondaryAudioHintType: String, VocabularyWord {
    case begin
    case end

    public static let vocabularyName = "secondary-audio hint type"

    /// Apple's raw value: begin 1, end 0.
    public var appleValue: UInt { self == .begin ? 1 : 0 }
}
