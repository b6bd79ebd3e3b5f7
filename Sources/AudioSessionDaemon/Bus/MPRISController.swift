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
final class MPRISController {
    let connection: BusConnection
    static let prefix = "org.mpris.MediaPlayer2."
    /// Parts of reverse-DNS ids that never name a player.
    static let genericParts: Set<String> = ["com", "org", "net", "io", "de", "dev", "uk", "fr", "app", "apps", "client",
                                            "desktop", "github", "gitlab", "gnome", "kde", "freedesktop", "www"]
    /// The players the bridge paused and has not played again.
    private var pausedByBridge: Set<String> = []

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
                    command(member, player)
                }
            }
        }
    }

    private func send(_ member: String, to player: String) {
        connection.call(.methodCall(destination: player, path: "/org/mpris/MediaPlayer2",
                                    interface: "org.mpris.MediaPlayer2.Player", member: member)) { _ in }
    }

    /// Reads the player's state, then pauses it if it plays and can pause, or plays it if the bridge
    /// paused it and it can play.
    private func command(_ member: String, _ player: String) {
        connection.call(.methodCall(destination: player, path: "/org/mpris/MediaPlayer2", interface: "org.freedesktop.DBus.Properties",
                                    member: "GetAll", [.string("org.mpris.MediaPlayer2.Player")])) { [self] result in
            let properties = (try? result.get())?.arguments.first?.stringDictionary ?? [:]
            if member == "Pause" {
                // A player paused by the user (or by an earlier unplug) is not the bridge's to play again.
                guard properties["PlaybackStatus"]?.stringValue ?? "Playing" == "Playing",
                    properties["CanPause"]?.boolValue ?? true
                else { pausedByBridge.remove(player); return }
                pausedByBridge.insert(player)
            } else {
                guard pausedByBridge.remove(player) != nil, properties["CanPlay"]?.boolValue ?? true else { return }
            }
            send(member, to: player)
        }
    }
}
