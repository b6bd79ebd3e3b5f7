// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// Spoken audio is paused, not ducked (DESIGN §2): a podcast or an audiobook under a navigation prompt
/// or a screen reader is lost, where music under it is fine. Where another session's ducking would
/// lower a session that pauses for voices (``Session/pausesForVoices``), it is interrupted instead
/// (``Interrupter/voice(_:)``: its player paused through MPRIS, or an opted-in app told `began`), and
/// when the voice ends it is told `ended` with `shouldResume`, and its player played again.
extension PolicyEngine {
    /// The voice of `speakerID` starts ducking others: the spoken audio that plays now is paused.
    mutating func pauseSpokenAudio(for speakerID: SessionID) {
        for id in sessions.activeIDs.sorted() where id != speakerID && sessions[id]?.pausesForVoices == true {
            interrupt(id, by: speakerID, forVoice: true)
        }
    }

    /// The voice of `speakerID` ended: what it paused may play again.
    mutating func resumeSpokenAudio(after speakerID: SessionID) {
        let appID = sessions[speakerID]?.appID
        for id in sessions.interruptedIDs.sorted() where sessions[id]?.interrupters.contains(.voice(speakerID)) == true {
            sessions[id]?.interrupters.remove(.voice(speakerID))
            refreshEffects(ofStreamsIn: id, fade: .zero, why: "the voice of \(speakerID) ended")
            if sessions[id]?.interrupters.isEmpty == true {
                interruptionEnded(id, shouldResume: true, interrupter: appID, reason: .default, interrupterSession: speakerID)
            }
        }
    }
}
