// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// What a desktop service is expected to do the way sd-bus and GDBus do it.
@Suite("Desktop habits", .threadOfItsOwn)
struct DesktopHabitsTests {
    /// Without `DBUS_SESSION_BUS_ADDRESS` (ssh, su, cron), a client of ours finds the session bus at
    /// `$XDG_RUNTIME_DIR/bus`: the test player's name appears on the bus it never was told about.
    @Test func sessionBusFoundUnderTheRuntimeDirectory() throws {
        let bus = try PrivateBus()
        var environment = bus.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        let player = try TestProcess(BridgeDaemon.buildDirectory + "/mpris-test-player", ["Fallback", "-"],
                                     environment: environment, logDirectory: bus.root)
        defer { player.stop() }
        try waitUntil("the player's name on the bus at $XDG_RUNTIME_DIR/bus") {
            try bus.run("busctl", ["--user", "list", "--no-pager"]).output.contains("org.mpris.MediaPlayer2.testplayer")
        }
    }

    /// With neither the variable nor the socket, a client fails with a named error instead of hanging.
    @Test func noSessionBusIsANamedError() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        environment["XDG_RUNTIME_DIR"] = NSTemporaryDirectory() + "audiosession-nobus-\(UUID().uuidString.prefix(8))"
        let (status, output) = try TestProcess.run(BridgeDaemon.buildDirectory + "/audiosessionctl", ["status"],
                                                   environment: environment)
        #expect(status != 0)
        #expect(output.contains("no session bus") && output.contains("$XDG_RUNTIME_DIR/bus"), "\(output)")
    }

    /// `--version` on both programs prints the same version and exits 0.
    @Test func versionOfBothPrograms() throws {
        let environment = ProcessInfo.processInfo.environment
        let ctl = try TestProcess.run(BridgeDaemon.buildDirectory + "/audiosessionctl", ["--version"], environment: environment)
        let daemon = try TestProcess.run(BridgeDaemon.testBuild, ["--version"], environment: environment)
        #expect(ctl.status == 0 && daemon.status == 0)
        #expect(ctl.output.split(separator: ".").count == 3, "\(ctl.output)")
        #expect(ctl.output == daemon.output)
    }

    /// `exec --help` is help (exit 0), and lists the words the options take.
    @Test func execHelpListsTheVocabulary() throws {
        let (status, output) = try TestProcess.run(BridgeDaemon.buildDirectory + "/audiosessionctl", ["exec", "--help"],
                                                   environment: ProcessInfo.processInfo.environment)
        #expect(status == 0, "\(output)")
        for word in ["playAndRecord", "multiRoute", "voiceChat", "spokenAudio", "duckOthers", "allowBluetoothA2DP"] {
            #expect(output.contains(word), "exec --help does not name \(word): \(output)")
        }
    }

    /// Policies along `$XDG_DATA_DIRS` (the first listed wins a name) and `$XDG_CONFIG_DIRS` (which add).
    @Test func policiesAlongTheXDGDirectories() throws {
        let root = NSTemporaryDirectory() + "audiosession-xdg-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        func policy(_ folder: String, _ name: String, category: String) throws {
            let directory = root + "/" + folder + "/audiosession/policies"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let text = "schema = 1\ndescription = \"\(name)\"\n[session]\ncategory = \"\(category)\"\n[match]\nbinaries = [\"\(name)-bin\"]\n"
            try text.write(toFile: directory + "/\(name).toml", atomically: true, encoding: .utf8)
        }
        try policy("data-first", "game", category: "soloAmbient")
        try policy("data-second", "game", category: "ambient")
        try policy("data-second", "alarm", category: "playback")
        try policy("config", "quiet", category: "ambient")
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_DIRS"] = "\(root)/data-first:\(root)/data-second"
        environment["XDG_CONFIG_DIRS"] = "\(root)/config"
        environment["XDG_CONFIG_HOME"] = root + "/home"
        let (status, output) = try TestProcess.run(BridgeDaemon.buildDirectory + "/audiosessionctl", ["policy", "list"],
                                                   environment: environment)
        #expect(status == 0, "\(output)")
        let sessions = Dictionary(output.split(separator: "\n").dropFirst().compactMap { line -> (String, String)? in
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            return words.count >= 2 ? (String(words[0]), String(words[1])) : nil
        }, uniquingKeysWith: { first, _ in first })
        #expect(sessions == ["game": "soloAmbient/default", "alarm": "playback/default", "quiet": "ambient/default"], "\(output)")
    }
}
