import AudioSessionIPC
import AudioSessionModel

/// The app-facing library, shaped like `AVAudioSession`: code written for AVAudioSession ports by
/// renaming `AVAudioSession` to `AudioSession`. It talks D-Bus only and never links libpulse.
public final class AudioSession: Sendable {
    /// The app's session.
    public static let shared = AudioSession()

    /// The app's session (Apple's spelling).
    public static func sharedInstance() -> AudioSession { shared }

    private init() {}
}
