// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// What an earlier run of the bridge left in force (DESIGN §2, "Nothing is left behind"): the journal's
/// leftovers, handed over once the server has been read. The engine takes them as its own changes: a
/// stream still there gets its user's levels back and counts as one the bridge changed, with the
/// levels the earlier run set on it; for a stream gone, the server's memory of the app is rewritten and
/// the app's next stream is owed the check against those levels. The server remembers what the earlier
/// run set (WirePlumber keeps the last levels it saw on the app's stream), and gives it to the app's
/// next stream.
extension PolicyEngine {
    mutating func takeLeftovers(_ entries: [JournalEntry]) {
        for entry in entries {
            var bridgeSet = BridgeSetLevels()
            bridgeSet.note(volume: entry.applied.volume, user: entry.original.volume)
            bridgeSet.note(mute: entry.applied.mute, user: entry.original.mute)
            // A run that stopped in the middle of a fade left one of its steps in force. A fade that ends
            // in a mute falls towards silence, and the volume set back under the mute may not have
            // reached the server before the run stopped.
            let fadedTo = entry.applied.mute && !entry.original.mute ? entry.original.volume.scaled(by: 0) : entry.applied.volume
            bridgeSet.note(unfinishedFadeFrom: entry.original.volume, to: fadedTo)
            if let stream = streams[entry.stream], entry.restoreKey == nil || stream.info.restoreKey == entry.restoreKey {
                takeEarlierRunsLevels(entry.stream, user: entry.original, bridgeSet: bridgeSet, always: true)
            } else if let key = entry.restoreKey {
                owedLevels[key] = OwedLevels(user: entry.original, bridgeSet: bridgeSet)
                emit(.rememberStreamLevels(restoreKey: key, entry.original, why: Self.leftoverReason))
                // The app's next stream may have started while no bridge ran, with what the server remembered.
                for id in streams.keys.sorted() where streams[id]?.info.restoreKey == key && streams[id]?.touched == false {
                    takeEarlierRunsLevels(id, user: entry.original, bridgeSet: bridgeSet, always: false)
                }
            }
        }
    }

    /// Takes a stream as one the bridge changed, with `bridgeSet` as what it set, and puts the user's
    /// levels back: all of them for the stream of the leftover (`always`); for another stream of its
    /// app, only those that are the earlier run's (the rest are someone's choice).
    private mutating func takeEarlierRunsLevels(_ id: StreamID, user: StreamLevels, bridgeSet: BridgeSetLevels, always: Bool) {
        guard var stream = streams[id] else { return }
        let reported = stream.applied
        let volumeRemembered = always || bridgeSet.holds(volume: reported.volume, userVolume: user.volume)
        let muteRemembered = always || bridgeSet.holds(mute: reported.mute, userMute: user.mute)
        guard volumeRemembered || muteRemembered else { return }
        if volumeRemembered { stream.user.volume = user.volume }
        if muteRemembered { stream.user.mute = user.mute }
        stream.touched = true
        stream.bridgeSet = bridgeSet
        streams[id] = stream
        reconcile(id, fade: .zero, why: always ? Self.leftoverReason : Self.serverMemoryReason)
    }

    static let leftoverReason = "recovered from the journal: an earlier bridge stopped without undoing this"
}
