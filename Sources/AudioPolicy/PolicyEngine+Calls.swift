// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// When an app of a policy is in a call, though it never said so (DESIGN §2, "Calls inside apps that
/// also play media"): browsers and Electron apps carry web meetings as well as videos, under one name
/// and no role.
public struct CallDetection: Hashable, Sendable {
    /// In a call while the app records from a microphone and plays at once.
    public var whileRecording: Bool
    /// Stream or client names of call engines (`WEBRTC VoiceEngine`, `ZOOM VoiceEngine`, `ringrtc`):
    /// a playing stream of the app whose name contains one puts it in a call (letter case aside).
    public var engines: [String]

    public init(whileRecording: Bool = false, engines: [String] = []) {
        self.whileRecording = whileRecording
        self.engines = engines
    }

    /// Whether the policy's apps may be in a call at all.
    public var isEnabled: Bool { whileRecording || !engines.isEmpty }
}

/// Why an app's policy session acts as a call.
public enum CallReason: Hashable, Sendable, CustomStringConvertible {
    /// It records from a microphone while it plays.
    case recordingWhilePlaying
    /// A stream of it is a call engine's (the engine's name as the policy lists it).
    case callEngine(String)

    public var description: String {
        switch self {
        case .recordingWhilePlaying: "it records from a microphone while it plays"
        case .callEngine(let name): "a stream of it is \(name)'s"
        }
    }
}

/// For that time its session acts as a call: it is `playAndRecord` / `voiceChat`, ranks as a call and
/// interrupts media; at hang-up its activation ends with `shouldResume` for those it interrupted, and it
/// is under its own policy again.
extension PolicyEngine {
    /// How a policy session in a call is configured.
    static let callConfiguration = try! SessionConfiguration(category: .playAndRecord, mode: .voiceChat, options: [])

    /// Looks again at whether a policy session's app is in a call, and starts or ends the call.
    mutating func refreshCall(of id: SessionID) {
        guard let session = sessions[id], session.kind == .policy, session.policy.calls.isEnabled || session.call != nil
        else { return }
        let reason = callReason(of: session)
        guard reason != session.call else { return }
        if session.call != nil { endCall(id) }
        if let reason { startCall(id, reason) }
    }

    /// Why the session's app is in a call now, if it is.
    func callReason(of session: Session) -> CallReason? {
        let detection = session.policy.calls
        let playing = session.streamIDs.compactMap { streams[$0] }.filter(\.isPlaying)
        for engine in detection.engines where playing.contains(where: { Self.carriesEngine($0.info, engine) }) {
            return .callEngine(engine)
        }
        if detection.whileRecording, playing.contains(where: { $0.info.id.direction == .input }),
            playing.contains(where: { $0.info.id.direction == .output })
        {
            return .recordingWhilePlaying
        }
        return nil
    }

    /// The app is in a call: its session acts as one; an active session interrupts media at once.
    private mutating func startCall(_ id: SessionID, _ reason: CallReason) {
        guard let session = sessions[id] else { return }
        sessions[id]?.call = reason
        sessions[id]?.configuration = Self.callConfiguration
        emit(.record(.call(id, app: session.appID, inCall: true, why: reason.description)))
        emit(.record(.sessionCategory(id, app: session.appID, Self.callConfiguration)))
        if session.isActive {
            interruptOthers(id)
        } else {
            autoActivateIfNeeded(id)
        }
    }

    /// The call is over: the activation ends, telling those it interrupted that they may resume, and
    /// the session is under its own policy again. The streams of the call that still run (the far end
    /// closes a moment after the microphone) do not activate it again: that would pause the music it
    /// just gave back; a stream that starts or joins afterwards does.
    private mutating func endCall(_ id: SessionID) {
        guard let session = sessions[id], let reason = session.call else { return }
        deactivate(id, notifyOthers: true)
        sessions[id]?.call = nil
        sessions[id]?.configuration = session.policy.configuration
        sessions[id]?.quietAfterCall = session.runningStreams > 0
        emit(.record(.call(id, app: session.appID, inCall: false, why: "the call is over (\(reason))")))
        emit(.record(.sessionCategory(id, app: session.appID, session.policy.configuration)))
    }
}
