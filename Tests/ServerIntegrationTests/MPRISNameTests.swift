// SPDX-License-Identifier: Apache-2.0
@testable import AudioSessionDaemon
import Testing

/// Which `org.mpris.MediaPlayer2.*` name is an app's player, when its process is not the stream's.
@Suite("MPRIS names of apps")
struct MPRISNameTests {
    static let names = ["org.mpris.MediaPlayer2.spotify", "org.mpris.MediaPlayer2.vlc.instance123",
                        "org.mpris.MediaPlayer2.org.gnome.Lollypop", "org.mpris.MediaPlayer2.tunes.instance42",
                        "org.mpris.MediaPlayer2.firefox.instance_1_42", "org.mpris.MediaPlayer2.chromium.instance9"]

    /// (app id, the player found, or nil)
    static let rows: [(String, String?)] = [
        ("com.spotify.Client", "org.mpris.MediaPlayer2.spotify"),
        ("org.videolan.VLC", "org.mpris.MediaPlayer2.vlc.instance123"),
        ("org.gnome.Lollypop", "org.mpris.MediaPlayer2.org.gnome.Lollypop"),
        ("com.example.Tunes", "org.mpris.MediaPlayer2.tunes.instance42"),
        ("org.mozilla.firefox", "org.mpris.MediaPlayer2.firefox.instance_1_42"),
        ("Tunes", "org.mpris.MediaPlayer2.tunes.instance42"),
        ("com.example.Client", nil),
        ("org.example.App", nil),
        ("com.spotify.ClientBeta", "org.mpris.MediaPlayer2.spotify"),
        ("com.example.Spotifyish", nil),
        ("vl", nil),
    ]

    @Test("the whole id first, then its telling parts from the last; generic parts never", arguments: rows)
    func playerForApp(row: (String, String?)) {
        #expect(MPRISController.player(among: Self.names, forApp: row.0) == row.1)
    }
}
