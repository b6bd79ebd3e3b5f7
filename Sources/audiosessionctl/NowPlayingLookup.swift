// SPDX-License-Identifier: Apache-2.0
import DBusKit

/// What a session's registered MPRIS player is playing, asked of the player itself (its
/// `PlaybackStatus` and `xesam:title`, in one `GetAll`), for `audiosessionctl status`.
enum NowPlayingLookup {
    /// `Playing 'Title'`, or what could be learnt; "-" when the player does not answer within a second.
    static func describe(player: String, on connection: BusConnection) -> String {
        let getAll = BusMessage.methodCall(destination: player, path: "/org/mpris/MediaPlayer2",
                                           interface: "org.freedesktop.DBus.Properties", member: "GetAll",
                                           [.string("org.mpris.MediaPlayer2.Player")])
        guard let reply = try? connection.call(getAll, timeout: .seconds(1)),
            let properties = reply.arguments.first?.stringDictionary,
            let status = properties["PlaybackStatus"]?.stringValue
        else { return "-" }
        // (`stringDictionary` unwraps the variants of a{sv}.)
        let title = properties["Metadata"]?.stringDictionary?["xesam:title"]?.stringValue
        return title.map { "\(status) '\($0)'" } ?? status
    }
}
