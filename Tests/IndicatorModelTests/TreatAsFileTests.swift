// SPDX-License-Identifier: Apache-2.0
import IndicatorModel
import Testing

/// The policy file *Treat as* writes, and the files it will not touch.
@Suite("Treat as: the user policy file")
struct TreatAsFileTests {
    static let names: [(app: String, file: String?)] = [
        ("mpv", "treat-as-mpv.toml"),
        ("org.gnome.Podcasts", "treat-as-org.gnome.podcasts.toml"),
        ("Music Player", "treat-as-music-player.toml"),
        ("../../etc/passwd", "treat-as-..-..-etc-passwd.toml"),
        ("", nil),
        ("  ", nil),
        ("…", nil),
    ]

    @Test("the file is named after the app, kept to safe characters; an app with no name gets none", arguments: names)
    func fileName(app: String, file: String?) {
        #expect((try? TreatAsFile.fileName(for: app)) == file)
        if file == nil { #expect(throws: TreatAsFile.Refusal.noName) { try TreatAsFile.fileName(for: app) } }
    }

    @Test("the file is commented, names the app and takes the chosen policy's settings")
    func text() {
        let text = TreatAsFile.text(app: "mpv \"x\"", policy: "game")
        #expect(text.hasPrefix(TreatAsFile.marker))
        #expect(text.contains("like = \"game\""))
        #expect(text.contains("binaries = [\"mpv \\\"x\\\"\"]"))
        #expect(text.contains("precedence = 1000"))
        #expect(TreatAsFile.chosenPolicy(in: text) == "game")
        #expect(TreatAsFile.chosenPolicy(in: "schema = 1\nlike = \"game\"\n") == nil, "not the indicator's file")
    }

    @Test("only a file the indicator wrote is replaced or removed")
    func usersOwnFile() throws {
        try TreatAsFile.check(existing: nil, name: "f")
        try TreatAsFile.check(existing: TreatAsFile.text(app: "mpv", policy: "game"), name: "f")
        #expect(throws: TreatAsFile.Refusal.usersOwnFile("f")) { try TreatAsFile.check(existing: "schema = 1\n", name: "f") }
    }
}
