// SPDX-License-Identifier: Apache-2.0
/// A specialisation of a category (`AVAudioSession.Mode`).
public enum SessionMode: String, VocabularyWord {
    case `default`
    case voiceChat
    case videoChat
    case gameChat
    case videoRecording
    case measurement
    case moviePlayback
    case spokenAudio
    case voicePrompt

    public static let vocabularyName = "mode"

    /// The categories the mode may be combined with.
    public var allowedCategories: Set<SessionCategory> {
        switch self {
        case .default: Set(SessionCategory.allCases)
        case .voiceChat, .videoChat, .gameChat: [.playAndRecord]
        case .videoRecording: [.playAndRecord, .record]
        case .measurement: [.playAndRecord, .record, .playback]
        case .moviePlayback, .spokenAudio: [.playback]
        case .voicePrompt: [.playback, .playAndRecord]
        }
    }

    /// Options the mode switches on by itself.
    public var impliedOptions: CategoryOptions {
        switch self {
        case .voiceChat: [.allowBluetooth]
        case .videoChat: [.allowBluetooth, .defaultToSpeaker]
        default: []
        }
    }

    /// Whether a session in this mode is a call, which ranks above ordinary sessions.
    public var isCall: Bool { self == .voiceChat || self == .videoChat }
}
