// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// The bridge driven only by clients nobody here wrote: `busctl`, `gdbus` and `dbus-send` on the bus,
/// `pacat` and `pactl` on the sound server, as a user would.
@Suite("The bridge through busctl, gdbus, dbus-send, pactl and pacat", .serialized, .threadOfItsOwn)
struct CommandLineClientTests {
    @Test("apps that never opt in are governed, observed and refused through stock tools", arguments: SoundServerKind.underTest)
    func stockTools(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let server = scenario.server
        let bus = server.busAddress!
        func tool(_ name: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
            try TestProcess.run(name, arguments, environment: server.environment)
        }
        func busctl(_ arguments: [String]) throws -> (status: Int32, output: String) {
            try tool("busctl", ["--address=\(bus)"] + arguments)
        }
        let bridge = "io.github.audiosession.Bridge1", manager = "/io/github/audiosession/Bridge1"
        let monitor = try server.spawn("gdbus", ["monitor", "--address", bus, "--dest", bridge])
        try waitUntil("gdbus monitor to listen") { monitor.output.contains("Monitoring") }

        // A music player that never opted in gets a policy session from its media.role.
        try server.play(app: "Music", role: "music")
        let music = try server.reportedStream(of: "Music")
        var sessionPath = ""
        try waitUntil("a policy session for the player") {
            let (status, output) = try busctl(["call", bridge, manager, bridge, "ListSessions"])
            guard status == 0, let path = output.split(separator: "\"").dropFirst().first else { return false }
            sessionPath = String(path)
            return output.hasPrefix("ao 1 ")
        }
        #expect(try busctl(["get-property", bridge, sessionPath, "io.github.audiosession.Session1", "Category"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines) == "s \"playback\"")
        try waitUntil("the player's session to be active") {
            try busctl(["get-property", bridge, sessionPath, "io.github.audiosession.Session1", "IsActive"]).output
                .hasPrefix("b true")
        }

        // A softphone's call interrupts it: muted on the server, and the signal on the bus.
        let phone = try server.play(app: "Softphone", role: "phone")
        try waitUntil("the player muted during the call") { try scenario.muted(music) == true }
        try waitUntil("Interruption began on the bus") { monitor.output.contains("Interruption ('began'") }
        phone.stop()
        try waitUntil("the player unmuted after the call") { try scenario.muted(music) == false }
        try waitUntil("Interruption ended with shouldResume on the bus") {
            monitor.output.contains("Interruption ('ended'") && monitor.output.contains("shouldResume")
        }

        // Refusals by name.
        let denied = try busctl(["call", bridge, sessionPath, "io.github.audiosession.Session1", "SetActive", "bas", "false", "0"])
        #expect(denied.status != 0)
        #expect(denied.output.contains("belongs to another connection"))
        let wrongSignature = try tool("dbus-send", ["--bus=\(bus)", "--print-reply", "--dest=\(bridge)", manager,
                                                    "\(bridge).CreateSession", "string:app"])
        #expect(wrongSignature.status != 0)
        #expect(wrongSignature.output.contains("org.freedesktop.DBus.Error.InvalidArgs"))
        let badCategory = try tool("gdbus", ["call", "--address", bus, "--dest", bridge, "--object-path", sessionPath,
                                             "--method", "io.github.audiosession.Session1.SetCategory", "loud", "default", "[]"])
        #expect(badCategory.output.contains("io.github.audiosession.Error.AccessDenied"))

        // A session made by a one-shot client ends with its connection.
        let created = try tool("gdbus", ["call", "--address", bus, "--dest", bridge, "--object-path", manager,
                                         "--method", "\(bridge).CreateSession", "oneshot", "{}"])
        #expect(created.status == 0)
        try waitUntil("SessionAdded and SessionRemoved on the bus") {
            monitor.output.contains("SessionAdded") && monitor.output.contains("SessionRemoved")
        }

        // The silent switch, set and read back, announced with PropertiesChanged.
        #expect(try busctl(["set-property", bridge, manager, bridge, "SilentMode", "b", "true"]).status == 0)
        #expect(try busctl(["get-property", bridge, manager, bridge, "SilentMode"]).output.hasPrefix("b true"))
        try waitUntil("PropertiesChanged for SilentMode") {
            monitor.output.contains("PropertiesChanged") && monitor.output.contains("'SilentMode': <true>")
        }
        #expect(try busctl(["introspect", bridge, manager]).output.contains(".CreateSession"))
    }
}
