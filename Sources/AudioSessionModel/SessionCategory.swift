// SPDX-License-Identifier: Apache-2.0
/// What kind of audio a session makes (`AVAudioSession.Category`).
public enum SessionCategory: String, VocabularyWord {
    case ambient
    case soloAmbient
    case playback
    case record
    case playAndRecord
    case audioProcessing
    case multiRoute

    public static let vocabularyName = "category"

    /// The category a session has before it sets one.
    public static let `default` = SessionCategory.soloAmbient

    /// Whether the category plays audio.
    public var hasOutput: Bool {
        switch self {
        case .ambient, .soloAmbient, .playback, .playAndRecord, .multiRoute: true
        case .record, .audioProcessing: false
        }
    }

    /// Whether the category records audio.
    public var hasInput: Bool {
        switch self {
        case .record, .playAndRecord, .multiRoute: true
        case .ambient, .soloAmbient, .playback, .audioProcessing: false
        }
    }

    /// Whether the silent switch and the screen lock silence the category's output.
    public var isSilencedBySilentModeAndLock: Bool {
        self == .ambient || self == .soloAmbient
    }

    /// Whether the category always mixes with others, whatever its options say.
    public var alwaysMixes: Bool { self == .ambient }

    /// The options this category accepts.
    public var allowedOptions: CategoryOptions {
        switch self {
        case .playback:
            [.mixWithOthers, .duckOthers, .interruptSpokenAudioAndMixWithOthers]
        case .playAndRecord:
            [.mixWithOthers, .duckOthers, .interruptSpokenAudioAndMixWithOthers, .allowBluetooth,
             .allowBluetoothA2DP, .allowAirPlay, .defaultToSpeaker, .overrideMutedMicrophoneInterruption]
        case .multiRoute:
            [.mixWithOthers, .duckOthers, .interruptSpokenAudioAndMixWithOthers,
             .overrideMutedMicrophoneInterruption]
        case .record:
            [.allowBluetooth, .overrideMutedMicrophoneInterruption]
        case .ambient, .soloAmbient, .audioProcessing:
            []
        }
    }
}
