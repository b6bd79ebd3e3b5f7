// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// The errors Apple gives where a session asks for what its state does not allow, and the
/// interruptions the system causes from outside (sleep, a call's headset gone): DESIGN §2,
/// "Errors and reasons the bridge produces".
extension PolicyEngine {
    /// Whether an explicit session may not record (`CannotStartRecording`): its category has no
    /// input, and its input streams record silence. Sessions made from policy files choose their own
    /// category. (A test for every stream's effects: no error is made here.)
    func refusesRecording(_ session: Session) -> Bool {
        session.kind == .explicit && !session.configuration.category.hasInput
    }

    /// Whether an explicit session may not play (`CannotStartPlaying`): its category has no output
    /// (`record` silences playback, as on Apple's platforms; `audioProcessing` has neither).
    func refusesPlayback(_ session: Session) -> Bool {
        session.kind == .explicit && !session.configuration.category.hasOutput
    }

    /// The error of ``refusesRecording(_:)``, for a reply or a log record.
    func recordingRefusal(of session: Session) -> AudioSessionError? {
        guard refusesRecording(session) else { return nil }
        return AudioSessionError(.cannotStartRecording,
                                 "\(session.id) (\(session.appID)) records, but category \(session.configuration.category) has no input")
    }

    /// The error of ``refusesPlayback(_:)``, for a log record.
    func playbackRefusal(of session: Session) -> AudioSessionError? {
        guard refusesPlayback(session) else { return nil }
        return AudioSessionError(.cannotStartPlaying,
                                 "\(session.id) (\(session.appID)) plays, but category \(session.configuration.category) has no output")
    }

    /// Why an explicit session may not activate in the background (`CannotInterruptOthers`): with the
    /// screen locked, a non-mixable session of a category the lock silences (`soloAmbient`) would
    /// interrupt others for audio no one may hear, as an app in the background may not on Apple's
    /// platforms. `playback` or `mixWithOthers` may.
    func backgroundActivationRefusal(of session: Session) -> AudioSessionError? {
        guard session.kind == .explicit, screenLocked, !session.isActive, !session.mixesWithOthers,
            session.configuration.category.isSilencedBySilentModeAndLock
        else { return nil }
        return AudioSessionError(.cannotInterruptOthers,
                                 "the screen is locked: \(session.configuration.category) may not interrupt others now; use playback or mixWithOthers")
    }

    /// The system stopped an explicit session from outside: it is told `began` with the reason and
    /// is no longer active (it may activate again); its streams are left as they are.
    mutating func suspend(_ id: SessionID, reason: InterruptionReason) {
        guard let session = sessions[id], session.kind == .explicit, session.isActive else { return }
        emit(.interruption(id, .began, reason: reason, options: [], interrupter: nil))
        deactivate(id, notifyOthers: false)
    }

    /// The machine goes to sleep: every active explicit session was suspended (`appWasSuspended`).
    mutating func sleep() {
        isAsleep = true
        for id in sessions.activeIDs.sorted() { suspend(id, reason: .appWasSuspended) }
    }

    /// A call lost the Bluetooth device of its route for good (`routeDisconnected`).
    mutating func callRouteDisconnected(_ id: SessionID) {
        guard let session = sessions[id], session.configuration.isCall else { return }
        suspend(id, reason: .routeDisconnected)
    }
}
