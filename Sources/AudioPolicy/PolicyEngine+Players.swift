// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// What an MPRIS player the bridge paused says of itself once the pause has taken effect
/// (`PropertiesChanged` on `org.mpris.MediaPlayer2.Player`, in order after the reply to `Pause`).
public struct PlayerChange: Sendable, Hashable {
    /// MPRIS `PlaybackStatus`.
    public enum Status: String, Sendable {
        case playing = "Playing", paused = "Paused", stopped = "Stopped"
    }

    /// The status it announced, if the change carries one.
    public var status: Status?
    /// Whether it announced another track than the one it played when the bridge paused it (by
    /// `mpris:trackid`, else `xesam:url`).
    public var otherTrack: Bool

    public init(status: Status?, otherTrack: Bool = false) {
        self.status = status
        self.otherTrack = otherTrack
    }

    /// Whether only the user can have made the change: a player paused by the bridge that plays, stops
    /// or moves to another track was taken back. `Paused` is the bridge's own pause, or a pause of a
    /// player already paused, which changes nothing.
    var isTheUsers: Bool { status == .playing || status == .stopped || otherTrack }
}

/// Resume only what was playing, and what the user wants resumed (DESIGN §2): the end of an
/// interruption plays a player again only if the bridge paused it and the user did not touch it since.
/// The bridge sees a touch in the player's stream (it plays again) and in what the player says over
/// MPRIS (it plays, stops or skips).
extension PolicyEngine {
    /// A session whose stream plays again during its interruption was taken back by the user: the
    /// interruption ends without `shouldResume`, so the bridge does not play its player either. The
    /// first start after each of the bridge's own `Play`s is the bridge's, however late it is reported
    /// (a voice may pause the player again between two sentences first).
    mutating func noteUserTouchedPlayer(_ sessionID: SessionID) {
        guard let session = sessions[sessionID] else { return }
        if session.awaitsOwnPlay {
            sessions[sessionID]?.ownPlaysUnseen -= 1
            return
        }
        guard session.isInterrupted, session.takenBack == nil else { return }
        sessions[sessionID]?.takenBack = "its stream played again during the interruption"
    }

    /// A player the bridge paused for an interruption that still lasts played, stopped or skipped:
    /// the user took it back. Any change after the interruption ended is the user's own business.
    mutating func playerChanged(_ id: SessionID, _ change: PlayerChange) {
        guard let session = sessions[id], session.pausedPlayer, session.isInterrupted, change.isTheUsers,
            session.takenBack == nil
        else { return }
        sessions[id]?.takenBack = change.otherTrack ? "its player moved to another track during the interruption"
            : "its player said \(change.status?.rawValue ?? "") during the interruption"
    }
}
