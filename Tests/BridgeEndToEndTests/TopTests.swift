// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// `audiosessionctl top` in a real terminal: tmux runs it in an 80×24 pane, the test reads the pane
/// (`capture-pane`) and types into it (`send-keys`), as a user would.
@Suite("The live view in a terminal", .serialized, .threadOfItsOwn)
struct TopTests {
    /// A tmux server of the test's own, on its own socket.
    struct Tmux {
        let socket: String
        let environment: [String: String]

        func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
            try TestProcess.run("tmux", ["-S", socket] + arguments, environment: environment)
        }

        /// The pane's text, with its escape sequences when `escapes` is set.
        func pane(escapes: Bool = false) -> String {
            (try? run(["capture-pane", "-p"] + (escapes ? ["-e"] : []) + ["-t", "top"]))?.output ?? ""
        }

        var isRunning: Bool { (try? run(["has-session", "-t", "top"]))?.status == 0 }
    }

    @Test("a call interrupts music and the redraw that follows shows the music interrupted by the call; q ends it",
          arguments: SoundServerKind.underTest([.pulseaudio, .pipewire14, .pipewire16]))
    func callInterruptsMusic(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let server = scenario.server
        let tmux = Tmux(socket: server.root + "/tmux.socket", environment: server.environment)
        defer { _ = try? tmux.run(["kill-server"]) }
        let ctl = BridgeDaemon.buildDirectory + "/audiosessionctl"
        let variables = ["DBUS_SESSION_BUS_ADDRESS", "PULSE_SERVER", "XDG_RUNTIME_DIR", "HOME"].compactMap { name in
            server.environment[name].map { "\(name)='\($0)'" }
        }.joined(separator: " ")
        let started = try tmux.run(["new-session", "-d", "-s", "top", "-x", "80", "-y", "24", "env \(variables) NO_COLOR=1 '\(ctl)' top"])
        #expect(started.status == 0, "\(started.output)")
        try waitUntil("top to draw its first screen (pane: \(tmux.pane()))") { tmux.pane().contains("LAST DECISIONS") }

        try server.spawnDetached("pacat", ["--playback", "--raw", "--client-name=Music", "--property=media.role=music", "/dev/zero"],
                                 log: server.root + "/logs/music.log")
        try waitUntil("the pane to show the music playing (pane: \(tmux.pane()))") {
            tmux.pane().split(separator: "\n").contains { $0.contains("Music") && $0.contains("media-player") && $0.contains("active") }
        }
        try server.spawnDetached("pacat", ["--playback", "--raw", "--client-name=Phone", "--property=media.role=phone", "/dev/zero"],
                                 log: server.root + "/logs/phone.log")
        let music = try server.reportedStream(of: "Music")
        try waitUntil("the call to mute the music on the server") { try server.reportedStream(index: music.index)?.mute == true }
        // The redraw that follows the bridge's records shows it; the pane is read until it does.
        try waitUntil("the pane to show the music session interrupted by the call (pane: \(tmux.pane()))") {
            tmux.pane().split(separator: "\n").contains { $0.hasPrefix("session/") && $0.contains("Music") && $0.contains("interrupted by Phone") }
        }
        try waitUntil("the pane to show the music's stream muted (pane: \(tmux.pane()))") {
            tmux.pane().split(separator: "\n").contains { $0.hasPrefix("sink-input/\(music.index) ") && $0.contains("muted by Phone") }
        }
        let pane = tmux.pane()
        let rows = pane.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows.allSatisfy { $0.count <= 80 }, "fits 80 columns")
        #expect(pane.contains("Music interrupted by Phone"), "the decision with its reason: \(pane)")
        #expect(pane.contains("speaker"), "the devices: \(pane)")
        #expect(!tmux.pane(escapes: true).contains("\u{1B}[3"), "NO_COLOR: no colour")

        _ = try tmux.run(["send-keys", "-t", "top", "q"])
        try waitUntil("q to end top") { !tmux.isRunning }
    }

    @Test("top refuses when its output is not a terminal")
    func refusesWithoutTerminal() throws {
        let (status, output) = try TestProcess.run(BridgeDaemon.buildDirectory + "/audiosessionctl", ["top"],
                                                   environment: ProcessInfo.processInfo.environment)
        #expect(status == 1)
        #expect(output.contains("standard output is not a terminal"), "\(output)")
    }
}
