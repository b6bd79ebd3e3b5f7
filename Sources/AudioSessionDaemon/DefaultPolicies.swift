import AudioPolicy
import AudioSessionModel

/// The policies in force when no policy files are loaded: the fallbacks by `media.role` that
/// DESIGN.md names (phone → call, event → alert, music/video → media, game → game, a11y → spoken audio).
public enum DefaultPolicies {
    public static let set: PolicySet = {
        func configuration(_ category: SessionCategory, _ mode: SessionMode = .default,
                           _ options: CategoryOptions = []) -> SessionConfiguration {
            // These combinations are valid by the tables of DESIGN.md §1.
            try! SessionConfiguration(category: category, mode: mode, options: options)
        }
        return PolicySet(policies: [
            SessionPolicy(name: "voip", configuration: configuration(.playAndRecord, .voiceChat), activation: .firstStream,
                          releaseGrace: .milliseconds(500)),
            SessionPolicy(name: "notification", configuration: configuration(.playback), isAlert: true,
                          activation: .perStream),
            SessionPolicy(name: "media-player", configuration: configuration(.playback), activation: .firstStream,
                          whenOutputRemoved: .pause, usesMPRIS: true),
            SessionPolicy(name: "game", configuration: configuration(.ambient), activation: .firstStream),
            SessionPolicy(name: "screen-reader", configuration: configuration(.playback, .spokenAudio),
                          activation: .firstStream),
        ])
    }()
}
