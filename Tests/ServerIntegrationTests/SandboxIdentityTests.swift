// SPDX-License-Identifier: Apache-2.0
@testable import AudioSessionDaemon
import Testing

/// The app id in a `.flatpak-info` keyfile.
@Suite("Flatpak info files")
struct SandboxIdentityTests {
    static let rows: [(String, String?)] = [
        ("[Application]\nname=com.spotify.Client\nruntime=runtime/org.freedesktop.Platform/x86_64/23.08\n", "com.spotify.Client"),
        ("[Instance]\nname=not-this\n[Application]\nname = org.gnome.Lollypop\n", "org.gnome.Lollypop"),
        ("[Runtime]\nname=org.freedesktop.Platform\n", nil),
        ("[Application]\nnamed=x\nname=\n", nil),
        ("", nil),
    ]

    @Test("the name of the [Application] group, and nothing else", arguments: rows)
    func appID(row: (String, String?)) {
        #expect(SandboxIdentity.flatpakID(inInfo: row.0) == row.1)
    }
}
