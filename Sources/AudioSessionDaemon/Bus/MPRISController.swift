// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import DBusKit

/// Pauses and plays sessions' players through MPRIS. An explicit session's player is the one it
/// registered; a policy session's is the `org.mpris.MediaPlayer2.*` name whose process (from the bus)
/// is the stream's process or one of its ancestors, failing that the name that carries the app id
/// (`org.mpris.MediaPlayer2.org.example.Player*`) or one of its telling parts (`com.spotify.Client` →
/// `org.mpris.MediaPlayer2.spotify`, `org.videolan.VLC` → `…vlc`). Such a player is paused only while
/// it says it is playing and can pause, and played again only if the bridge paused it; a registered
/// player is the app's own, commanded as the engine decides (the app also hears the interruption).
///
/// A player the bridge paused is followed until the bridge plays it again: what it says over MPRIS
/// once the pause has taken effect (after the reply to `Pause`, in the order it sent them) goes to the
/// engine, which decides whether the user took it back. A player may answer a command before it has
/// carried it out and announce the change later (mpv's plugin does), so what it announces is taken in
/// the order of its announcements, not of its answers: a `Playing` before it has announced the
/// bridge's pause is the playing the bridge stopped, and the first `Playing` after the bridge's own
/// `Play` is that play's, however late either comes; neither is the user's. Each of the bridge's
/// pauses of a playing player is announced once, so a `Paused` still owed for an earlier pause (one
/// the bridge never undid: an unplug's, or an interruption's the user took back) is not taken for
/// the announcement of the latest.
final class MPRISController {
    let connection: BusConnection
    static let prefix = "org.mpris.MediaPlayer2."
    /// Parts of reverse-DNS ids that never name a player.
    static let genericParts: Set<String> = ["com", "org", "net", "io", "de", "dev", "uk", "fr", "app", "apps", "client",
                                            "desktop", "github", "gitlab", "gnome", "kde", "freedesktop", "www"]
    /// Every player's `PropertiesChanged` on its player interface; the bridge looks only at those of
    /// the players it paused.
    static let matchRule = "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',"
        + "path='/org/mpris/MediaPlayer2',arg0='\(playerInterface)'"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"

    /// A player the bridge paused and has not played again.
    private struct PausedPlayer {
        let session: SessionID
        /// The unique name of the player's connection, which its signals come from.
        let owner: String?
        /// Its track when the bridge paused it.
        var track: Track?
        /// Whether the reply to the bridge's `Pause` has come: what the player said before it is its
        /// state before the pause, and moves only its track.
        var pauseTookEffect = false
    }

    /// The players the bridge paused and has not played again, by bus name.
    private var pausedByBridge: [String: PausedPlayer] = [:]
    /// The players the bridge played that have not announced `Playing` since, by the unique name of
    /// their connection (which their signals come from).
    private var unannouncedPlays: Set<String> = []
    /// How many of the bridge's pauses each player has not announced yet (`Paused`), by the unique name
    /// of its connection: a `Playing` it announces while one is owed is the playing a pause stopped,
    /// announced late. Forgotten at the bridge's own `Play`, after which what it announces is that play's.
    private var unannouncedPauses: [String: Int] = [:]

    init(connection: BusConnection) { self.connection = connection }

    /// The suffixes after `org.mpris.MediaPlayer2.` an app's player may use, best first: the whole
    /// id, then its parts from the last, without the generic ones.
    static func nameHints(for appID: String) -> [String] {
        let parts = appID.lowercased().split(separator: ".").map(String.init)
        return [appID.lowercased()] + parts.dropFirst().reversed().filter { !genericParts.contains($0) }
    }

    /// The first of `names` (bus names) that carries one of the hints, the better hint first.
    static func player(among names: [String], forApp appID: String) -> String? {
        for hint in nameHints(for: appID) {
            if let name = names.first(where: { name in
                let suffix = name.dropFirst(prefix.count).lowercased()
                return suffix == hint || suffix.hasPrefix(hint + ".")
            }) { return name }
        }
        return nil
    }

    /// The player of a session, if it is on the bus: calls `member` (`Pause` or `Play`) on it.
    func send(_ member: String, toPlayerOf session: Session) {
        if let registered = session.nowPlayingPlayer { return send(member, to: registered) }
        // A new pause of the session's player: what it says counts again only after this pause's
        // reply (a play the user asked before it may be announced after the interruption began).
        for (name, paused) in pausedByBridge where paused.session == session.id {
            pausedByBridge[name]?.pauseTookEffect = false
        }
        let chain = session.processChain
        let appID = session.appID
        connection.call(.methodCall(destination: BusDriver.name, path: BusDriver.path, interface: BusDriver.name,
                                    member: "ListNames")) { [self] result in
            let names = ((try? result.get())?.arguments.first?.stringArray ?? []).filter { $0.hasPrefix(Self.prefix) }
            guard !names.isEmpty else { return }
            var pending = names.count
            var byProcess: String?
            for name in names {
                BusDriver.processID(of: name, on: connection) { [self] pid in
                    if let pid, chain.contains(Int32(bitPattern: pid)), byProcess == nil { byProcess = name }
                    pending -= 1
                    guard pending == 0, let player = byProcess ?? Self.player(among: names, forApp: appID) else { return }
                    command(member, player, of: session.id)
                }
            }
        }
    }

    private func send(_ member: String, to player: String, then done: @escaping () -> Void = {}) {
        connection.call(.methodCall(destination: player, path: "/org/mpris/MediaPlayer2",
                                    interface: Self.playerInterface, member: member)) { _ in done() }
    }

    /// Reads the player's state, then pauses it if it plays and can pause, or plays it if the bridge
    /// paused it and it can play.
    private func command(_ member: String, _ player: String, of session: SessionID) {
        connection.call(.methodCall(destination: player, path: "/org/mpris/MediaPlayer2", interface: "org.freedesktop.DBus.Properties",
                                    member: "GetAll", [.string(Self.playerInterface)])) { [self] result in
            let reply = try? result.get()
            let properties = reply?.arguments.first?.stringDictionary ?? [:]
            if member == "Pause" {
                // A player paused by the user (or by an earlier unplug) is not the bridge's to play again.
                guard properties["PlaybackStatus"]?.stringValue ?? "Playing" == "Playing",
                    properties["CanPause"]?.boolValue ?? true
                else { pausedByBridge[player] = nil; return }
                pausedByBridge[player] = PausedPlayer(session: session, owner: reply?.sender,
                                                      track: Self.track(properties["Metadata"]))
                if let owner = reply?.sender { unannouncedPauses[owner, default: 0] += 1 }
                send(member, to: player) { [self] in pausedByBridge[player]?.pauseTookEffect = true }
            } else {
                guard pausedByBridge.removeValue(forKey: player) != nil, properties["CanPlay"]?.boolValue ?? true else { return }
                if let owner = reply?.sender {
                    unannouncedPlays.insert(owner)
                    unannouncedPauses[owner] = nil
                }
                send(member, to: player)
            }
        }
    }

    /// What a player the bridge paused says after the pause took effect, and the session it plays
    /// for; nil for any other message (what it says before is its playing, and only moves its track).
    /// A `Playing` before the pause was announced, and the first after the bridge's own `Play`, are
    /// left out.
    func change(_ message: BusMessage) -> (SessionID, PlayerChange)? {
        guard message.kind == .signal, message.member == "PropertiesChanged", message.path == "/org/mpris/MediaPlayer2",
            message.arguments.first?.stringValue == Self.playerInterface, let sender = message.sender
        else { return nil }
        let entry = pausedByBridge.first { $0.value.owner == sender }
        guard entry != nil || unannouncedPlays.contains(sender) || unannouncedPauses[sender] != nil else { return nil }
        let changed = message.arguments.dropFirst().first?.stringDictionary ?? [:]
        var status = changed["PlaybackStatus"]?.stringValue.flatMap(PlayerChange.Status.init(rawValue:))
        let owedPauses = unannouncedPauses[sender] ?? 0
        if status == .paused, owedPauses > 0 { unannouncedPauses[sender] = owedPauses > 1 ? owedPauses - 1 : nil }
        // Before a pause is announced, the playing it stopped; it leaves the bridge's play unannounced.
        if status == .playing && owedPauses > 0 { status = nil }
        if status == .playing, unannouncedPlays.remove(sender) != nil { status = nil }
        guard let name = entry?.key, var paused = entry?.value else { return nil }
        let track = Self.track(changed["Metadata"])
        let otherTrack = track.map { paused.track?.isOther(than: $0) ?? false } ?? false
        if let track { paused.track = Track(id: track.id ?? paused.track?.id, url: track.url ?? paused.track?.url) }
        pausedByBridge[name] = paused
        guard paused.pauseTookEffect else { return nil }
        return (paused.session, PlayerChange(status: status, otherTrack: otherTrack))
    }

    /// A track's identity in MPRIS `Metadata`: `mpris:trackid` and `xesam:url`, as far as given.
    struct Track {
        var id: String?
        var url: String?

        /// Whether `other` is another track: one of the two is known on both sides and differs (a
        /// player that left one out, or did not say at all, moved nowhere).
        func isOther(than other: Track) -> Bool {
            (id != nil && other.id != nil && id != other.id) || (url != nil && other.url != nil && url != other.url)
        }
    }

    private static func track(_ metadata: BusValue?) -> Track? {
        guard let fields = metadata?.stringDictionary else { return nil }
        let track = Track(id: fields["mpris:trackid"]?.stringValue, url: fields["xesam:url"]?.stringValue)
        return track.id == nil && track.url == nil ? nil : track
    }
}
