// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// The server's memory of an app's levels (DESIGN §2, "Nothing is left behind"). The sound server
/// remembers the last mute and volume of an app's stream and gives them to the app's next stream:
/// PulseAudio's module-stream-restore, WirePlumber's restore-stream state. A stream that ended while
/// the bridge had it muted or ducked, or just after the bridge put it back (WirePlumber 0.4 and 0.5
/// may miss a change that lands as the stream ends), would make the app's next stream start silenced.
///
/// Two means, decided from the bridge's own record of the user's levels, never from what the server
/// reports: the memory is rewritten when the stream ends (`rememberStreamLevels`: ext-stream-restore
/// on PulseAudio, WirePlumber 0.4's `route-settings` metadata through pipewire-pulse 0.3); and the
/// app's next stream is watched for a short window: levels the server gives it that are not the
/// user's are the memory at work (WirePlumber 0.5 takes no rewrite), and the bridge sets the user's
/// levels on the live stream, so that what is remembered from then on is the user's own.
extension PolicyEngine {
    /// A stream the bridge changed has ended: rewrite the server's memory with the user's levels and
    /// owe the app's next stream a check.
    mutating func rememberUserLevels(of stream: TrackedStream) {
        guard stream.touched, let key = stream.info.restoreKey else { return }
        owedLevels[key] = stream.user
        emit(.rememberStreamLevels(restoreKey: key, stream.user,
                                   why: "\(stream.info.id) ended after the bridge changed it; the app's next stream starts as the user had it"))
    }

    /// A new stream of an app whose earlier stream the bridge changed: its levels are the user's, not
    /// what the server started it with; for ``EngineSettings/serverMemoryWindow`` a level the bridge
    /// did not ask for is the server's memory catching up.
    mutating func takeOwedLevels(_ id: StreamID) {
        guard let key = streams[id]?.info.restoreKey, let owed = owedLevels.removeValue(forKey: key) else { return }
        streams[id]?.user = owed
        streams[id]?.serverMemoryUntil = now + settings.serverMemoryWindow
        reconcile(id, fade: .zero, why: Self.serverMemoryReason)
    }

    /// Absorbs a report during a new stream's memory window; false when it is not the server's memory.
    mutating func absorbServerMemory(_ id: StreamID, _ reported: StreamLevels) -> Bool {
        guard var stream = streams[id], let end = stream.serverMemoryUntil else { return false }
        guard now <= end else {
            streams[id]?.serverMemoryUntil = nil
            return false
        }
        let volumeUnasked = reported.volume != stream.applied.volume && !stream.expectedVolumes.contains(reported.volume)
        let muteUnasked = reported.mute != stream.applied.mute && !stream.expectedMutes.contains(reported.mute)
        guard volumeUnasked || muteUnasked else { return false }
        // The memory overwrote whatever was under way: start again from what the server has now.
        stream.applied = reported
        stream.confirmed = reported
        stream.expectedVolumes = []
        stream.expectedMutes = []
        stream.fade = nil
        streams[id] = stream
        reconcile(id, fade: .zero, why: Self.serverMemoryReason)
        return true
    }

    static let serverMemoryReason =
        "the server started the app's new stream with levels the bridge had set on an earlier one; the user's are put back"
}
