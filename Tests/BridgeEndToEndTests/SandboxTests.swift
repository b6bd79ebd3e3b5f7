// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import Testing

/// Callers in a Flatpak sandbox are identified as the portals identify them: by the
/// `/.flatpak-info` of the root their process sees. The test's sandbox is a process chrooted, in a
/// mount namespace of its own, into a folder with the host's `/usr`, `/etc`, `/tmp`, `/proc`, `/dev`
/// and `/run` bound in and a `.flatpak-info` the test writes.
@Suite("Flatpak callers", .serialized)
struct SandboxTests {
    /// Runs `python` (a script using dbus-python on the session bus) inside a fake sandbox of `appID`;
    /// returns its output.
    static func runSandboxed(_ appID: String, _ python: String, in server: SoundServer) throws -> String {
        let root = server.root + "/sandbox-\(UUID().uuidString.prefix(6))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try "[Application]\nname=\(appID)\nruntime=runtime/org.freedesktop.Platform/x86_64/23.08\n\n[Instance]\ninstance-id=1\n"
            .write(toFile: root + "/.flatpak-info", atomically: true, encoding: .utf8)
        let enter = """
            R=$1; shift
            for d in usr etc tmp proc dev run; do mkdir -p "$R/$d" && mount --rbind "/$d" "$R/$d" || exit 97; done
            for l in bin lib lib64 sbin; do [ -e "$R/$l" ] || ln -s "usr/$l" "$R/$l"; done
            exec chroot "$R" "$@"
            """
        let (status, output) = try TestProcess.run("/usr/bin/unshare", ["--mount", "/bin/sh", "-c", enter, "sh", root,
                                                                        "/usr/bin/python3", "-c", python],
                                                   environment: server.environment)
        guard status == 0 else { throw HarnessError("the sandboxed client exited \(status): \(output)") }
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static let createSession = """
        import sys, dbus
        bus = dbus.SessionBus()
        bridge = bus.get_object("io.github.audiosession.Bridge1", "/io/github/audiosession/Bridge1")
        for app in sys.argv[1:]:
            try:
                path, token = bridge.CreateSession(app, dbus.Dictionary({}, signature="sv"),
                                                   dbus_interface="io.github.audiosession.Bridge1")
                print("created", app)
            except dbus.exceptions.DBusException as error:
                print(error.get_dbus_name(), app, error.get_dbus_message())
        """

    @Test("a sandboxed caller is its Flatpak app: it may make sessions under its app id and no other",
          arguments: SoundServerKind.allCases)
    func sandboxedCallerIdentified(kind: SoundServerKind) throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let daemon = try BridgeDaemon(server: server)
        defer { daemon.terminate() }
        let script = "import sys\nsys.argv = ['x', 'com.example.Tunes', 'org.mozilla.firefox']\n" + Self.createSession
        let lines = try Self.runSandboxed("com.example.Tunes", script, in: server).split(separator: "\n").map(String.init)
        #expect(lines.first == "created com.example.Tunes", "\(lines)")
        #expect(lines.last?.hasPrefix("io.github.audiosession.Error.AccessDenied org.mozilla.firefox") == true, "\(lines)")
        #expect(lines.last?.contains("com.example.Tunes") == true, "the error names the sandbox's app: \(lines)")
        // Outside a sandbox, the declared id stands.
        let client = try BusClient(address: server.busAddress!)
        #expect(client.errorName(BusClient.manager, BusClient.bridge, "CreateSession",
                                 [.string("org.mozilla.firefox"), .vardict([])]) == nil)
    }
}
