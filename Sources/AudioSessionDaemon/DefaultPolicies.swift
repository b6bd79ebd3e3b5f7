// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionModel

/// The policies in force before policy files are read, and when none can be found at all (a bridge
/// run from a build folder without `--policies`): the fallbacks by `media.role` of DESIGN.md
/// (phone → call, event → alert, music/video → media, game → game, a11y → spoken audio). The policy
/// files in `policies/` are the real source; keep these few lines in step with them.
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
