// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// New policy files take effect at once: an app that the new files give another policy (a user's
/// *Treat as* file, or its removal) has its current streams governed by that policy now, not from its
/// next stream on.
extension PolicyEngine {
    mutating func policiesLoaded(_ set: PolicySet) {
        policySet = set
        var left: Set<SessionID> = []
        for streamID in streams.keys.sorted() {
            guard let stream = streams[streamID] else { continue }
            let old = stream.session.flatMap { sessions[$0] }
            // Streams of explicit sessions are the app's; a stream in no session is one no policy took.
            guard old?.kind ?? .policy == .policy else { continue }
            let choice = policySet.choice(for: stream.info.app, role: stream.info.role)
            guard choice?.policy.name != old?.policy.name else { continue }
            if let old {
                leave(streamID, old.id)
                left.insert(old.id)
            }
            if let new = attribute(stream.info, chosen: choice) {
                join(streamID, new)
            } else {
                refreshEffects(of: streamID, fade: .zero, why: "no policy governs \(stream.info.app.name) any more")
            }
        }
        // A policy session that lost its last stream to another policy ends, as when its streams end.
        for id in left.sorted() where sessions[id]?.streamIDs.isEmpty == true {
            releaseSession(id)
        }
    }
}
