import DBusKit

/// What a session's registered MPRIS player is playing, asked of the player itself (its
/// `PlaybackStatus` and `xesam:title`), for `audiosessionctl status`.
enum NowPlayingLookup {
    /// `Playing 'Title'`, or what could be learnt; "-" when the player does not answer within a second.
    static func describe(player: String, on connection: BusConnection) -> String {
        func property(_ name: String) -> BusValue? {
            let get = BusMessage.methodCall(destination: player, path: "/org/mpris/MediaPlayer2",
                                            interface: "org.freedesktop.DBus.Properties", member: "Get",
                                            [.string("org.mpris.MediaPlayer2.Player"), .string(name)])
            guard let reply = try? connection.call(get, timeout: .seconds(1)), case .variant(let value)? = reply.arguments.first
            else { return nil }
            return value
        }
        guard let status = property("PlaybackStatus")?.stringValue else { return "-" }
        let title = property("Metadata")?.stringDictionary?["xesam:title"].flatMap { value -> String? in
            if case .variant(let inner) = value { return inner.stringValue }
            return value.stringValue
        }
        return title.map { "\(status) '\($0)'" } ?? status
    }
}
