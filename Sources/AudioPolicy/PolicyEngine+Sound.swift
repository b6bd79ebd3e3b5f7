// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// Sound, not presence (DESIGN §2). Programs keep streams open when they are quiet: speech-dispatcher
/// after each utterance, browsers after a video, games in their menus. A stream of a policy with
/// `release-after-silence-ms` counts as playing only while it carries sound: the shell watches its
/// level (``PolicyAction/watchSound(_:silence:)``) and reports when it has been silent for the policy's
/// time and when it sounds again (``PolicyEvent/streamSounding(_:)`` and ``PolicyEvent/streamSilent(_:)``). A silent stream counts as
/// a corked one: a duck, an interruption or a per-stream activation that lasted while it played ends,
/// and comes back when it sounds. The engine never reads levels itself.
extension PolicyEngine {
    /// Starts watching an output stream's sound when the session it joins asks for it (a policy with
    /// a silence time), and stops when it does not: the stream then counts as sounding again.
    mutating func watchSoundAsAsked(_ id: StreamID, by sessionID: SessionID) {
        guard let stream = streams[id], id.direction == .output, let session = sessions[sessionID] else { return }
        let silence = session.kind == .policy ? session.policy.releaseAfterSilence : nil
        if let silence, !stream.soundMonitored {
            streams[id]?.soundMonitored = true
            emit(.watchSound(id, silence: silence))
        } else if silence == nil, stream.soundMonitored {
            streams[id]?.soundMonitored = false
            emit(.stopWatchingSound(id))
            setSilent(id, false)
        }
    }

    /// The shell's report on a watched stream's sound.
    mutating func streamSound(_ id: StreamID, sounding: Bool) {
        guard let stream = streams[id], stream.soundMonitored, stream.silent == sounding else { return }
        emit(.record(.streamSound(id, app: stream.info.app.name, sounding: sounding)))
        setSilent(id, !sounding)
    }

    private mutating func setSilent(_ id: StreamID, _ silent: Bool) {
        guard let old = streams[id], old.silent != silent else { return }
        streams[id]?.silent = silent
        playingChanged(id, wasPlaying: old.isPlaying)
    }
}
