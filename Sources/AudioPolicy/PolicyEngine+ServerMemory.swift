// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// The server's memory of an app's levels (DESIGN §2, "Nothing is left behind"). The sound server
/// remembers the last mute and volume of an app's stream and gives them to the app's next stream:
/// PulseAudio's module-stream-restore, WirePlumber's restore-stream state. A stream that ended while
/// the bridge had it muted or ducked, or just after the bridge put it back (WirePlumber 0.4 and 0.5
/// may miss a change that lands as the stream ends), would make the app's next stream start silenced.
///
/// Two means, decided from the bridge's own record of what it set, never from what the server
/// reports: the memory is rewritten when the stream ends (`rememberStreamLevels`: ext-stream-restore
/// on PulseAudio, WirePlumber 0.4's `route-settings` metadata through pipewire-pulse 0.3); and the
/// app's next stream is watched for a short window. A level the server gives it in that window that
/// is one the bridge had set on the earlier stream (a mute, a ducked or fading volume) is the memory at
/// work (WirePlumber 0.5 takes no rewrite), and the bridge puts the user's level back on the live
/// stream, so that what is remembered from then on is the user's own. Any other level is someone's
/// choice (the app opening its stream at its own volume, a person at a mixer) and stays.
extension PolicyEngine {
    /// A stream the bridge changed has ended: rewrite the server's memory with the user's levels and
    /// owe the app's next stream a check against the levels the bridge had set.
    mutating func rememberUserLevels(of stream: TrackedStream) {
        guard stream.touched, let key = stream.info.restoreKey else { return }
        owedLevels[key] = OwedLevels(user: stream.user, bridgeSet: stream.bridgeSet)
        emit(.rememberStreamLevels(restoreKey: key, stream.user,
                                   why: "\(stream.info.id) ended after the bridge changed it; the app's next stream starts as the user had it"))
    }

    /// A new stream of an app whose earlier stream the bridge changed, or whose other stream the bridge
    /// has changed, now or before (the server remembers the level it last saw on any stream of the app:
    /// a player that opens its next track's stream while a call has its current one muted gets the
    /// mute, and WirePlumber 0.4 may still give it after the call): a
    /// starting level that the bridge had set on that stream is the server's memory, and the user's
    /// level of that stream is taken as this one's; for ``EngineSettings/serverMemoryWindow`` such a
    /// level reported later is the memory catching up. Returns whether the stream's levels are to be
    /// put right (``reconcile(_:fade:why:)``, once the stream has joined its session, so that an effect
    /// in force there is not lifted for a moment).
    mutating func takeRememberedLevels(_ id: StreamID) -> Bool {
        guard var stream = streams[id], let key = stream.info.restoreKey,
            let owed = owedLevels.removeValue(forKey: key) ?? changedLevels(sharing: key, besides: id)
        else { return false }
        stream.serverMemory = TrackedStream.ServerMemoryWindow(until: now + settings.serverMemoryWindow, bridgeSet: owed.bridgeSet)
        if owed.bridgeSet.holds(volume: stream.user.volume, userVolume: owed.user.volume) { stream.user.volume = owed.user.volume }
        if owed.bridgeSet.holds(mute: stream.user.mute, userMute: owed.user.mute) { stream.user.mute = owed.user.mute }
        streams[id] = stream
        return true
    }

    /// The levels of a live stream with the same restore key that the bridge has changed, now or
    /// before (it put the user's back), the lowest such stream with an effect in force first, for a
    /// choice that does not depend on the table's order: what the server's memory of the key may hold.
    /// WirePlumber 0.4 can keep the bridge's mute after the bridge put every stream of the app back: the
    /// last of a burst of changes it saves may be one it read before the put-back.
    private func changedLevels(sharing key: String, besides id: StreamID) -> OwedLevels? {
        streams.values.lazy.filter { $0.info.id != id && $0.info.restoreKey == key && $0.touched }
            .min { ($0.hasEffectInForce ? 0 : 1, $0.info.id) < ($1.hasEffectInForce ? 0 : 1, $1.info.id) }
            .map { OwedLevels(user: $0.user, bridgeSet: $0.bridgeSet) }
    }

    /// During a new stream's memory window, takes the parts of a report that are the server's memory:
    /// the stream is then where the server put it, and the caller puts the user's levels back. Returns
    /// whether any part was; a part that is not is left to the caller as anyone's change.
    mutating func absorbServerMemory(_ id: StreamID, _ reported: StreamLevels) -> Bool {
        guard var stream = streams[id], let memory = stream.serverMemory else { return false }
        guard now <= memory.until else {
            streams[id]?.serverMemory = nil
            return false
        }
        let volumeRemembered = stream.volumeRecord.isUnasked(reported.volume)
            && memory.bridgeSet.holds(volume: reported.volume, userVolume: stream.user.volume)
        let muteRemembered = stream.muteRecord.isUnasked(reported.mute)
            && memory.bridgeSet.holds(mute: reported.mute, userMute: stream.user.mute)
        guard volumeRemembered || muteRemembered else { return false }
        // The memory overwrote whatever was under way: start again from what the server has now.
        if volumeRemembered {
            stream.volumeRecord.restart(at: reported.volume)
            stream.fade = nil
        }
        if muteRemembered {
            stream.muteRecord.restart(at: reported.mute)
        }
        streams[id] = stream
        return true
    }

    static let serverMemoryReason =
        "the server started the app's new stream with levels the bridge had set on an earlier one; the user's are put back"
}

/// What a server may remember of a stream the bridge changed: the levels the bridge set on it that
/// were not the user's. Only these are taken for the server's memory on the app's next stream.
struct BridgeSetLevels: Hashable, Sendable {
    /// The volumes the bridge set other than the user's (a duck, every step of its fades), oldest first.
    private(set) var volumes: [ChannelVolumes] = []
    /// Whether the bridge muted the stream while the user had it unmuted.
    private(set) var muted = false
    /// A fade an earlier run of the bridge started and may have left at any step (it stopped without
    /// undoing it, and its journal says only where the fade began and where it was going).
    private(set) var unfinishedFade: UnfinishedFade?

    /// Where a fade began and where it was going.
    struct UnfinishedFade: Hashable, Sendable {
        var from: ChannelVolumes
        var to: ChannelVolumes
    }

    /// How many volumes are kept: every step of a fade down and back up at the longest fade a policy
    /// file allows (``PolicyDocument/longestDuckFade``, a step every
    /// ``EngineSettings/fadeStep``: 500 each way), and a few set before them (1024 in all). The server
    /// may remember any of them: WirePlumber 0.4 saves a level it read earlier in a burst of changes, and
    /// on a loaded machine the burst is a whole fade (in `make stress` it kept the first step of an
    /// unduck that had gone nine steps further when the stream ended). Only exact levels the bridge set
    /// count, so keeping more takes no one's own level for the memory.
    static let kept = 2 * Int(PolicyDocument.longestDuckFade / EngineSettings().fadeStep) + 24

    /// Notes a volume the bridge sets; the user's own is not noted.
    mutating func note(volume: ChannelVolumes, user: ChannelVolumes) {
        guard volume != user else { return }
        volumes.removeAll { $0 == volume }
        volumes.append(volume)
        if volumes.count > Self.kept { volumes.removeFirst() }
    }

    /// Notes a fade from `from` to `to` that an earlier run left at a step unknown.
    mutating func note(unfinishedFadeFrom from: ChannelVolumes, to: ChannelVolumes) {
        unfinishedFade = from == to ? nil : UnfinishedFade(from: from, to: to)
    }

    /// Notes a mute the bridge sets.
    mutating func note(mute: Bool, user: Bool) {
        if mute && !user { muted = true }
    }

    /// Whether `volume`, which is not the user's, is one the bridge set, as the server's memory keeps it
    /// (``ChannelVolumes/isRemembered(as:)``: WirePlumber 0.5 kept an earlier fade's step for a duck
    /// within its rounding of it).
    func holds(volume: ChannelVolumes, userVolume: ChannelVolumes) -> Bool {
        volume != userVolume && !volume.isRemembered(as: userVolume)
            && (volumes.contains { $0.isRemembered(as: volume) } || unfinishedFade.map { $0.from.spans(volume, to: $0.to) } == true)
    }

    /// Whether `mute`, which is not the user's, is the bridge's mute.
    func holds(mute: Bool, userMute: Bool) -> Bool { mute && !userMute && muted }
}

/// What an app's next stream is owed after the bridge changed an earlier one that has ended.
struct OwedLevels: Hashable, Sendable {
    /// The user's levels of the earlier stream.
    var user: StreamLevels
    /// The levels the bridge had set on it: what the server may remember.
    var bridgeSet: BridgeSetLevels
}
