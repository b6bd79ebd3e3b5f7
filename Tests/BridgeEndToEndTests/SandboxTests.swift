// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// Callers in a Flatpak sandbox are identified as the portals identify them: by the
/// `/.flatpak-info` of the root their process sees. The test's sandbox is a process chrooted, in a
/// mount namespace of its own, into a folder with the host's `/usr`, `/etc`, `/tmp`, `/proc`, `/dev`
/// and `/run` bound in and a `.flatpak-info` the test writes.
@Suite("Flatpak callers", .serialized, .threadOfItsOwn)
struct SandboxTests {
    /// Runs `python` (a script using dbus-python on the session bus) inside a fake sandbox of `appID`;
    /// returns its output.
    static func runSandboxed(_ appID: String, _ python: String, in server: SoundServer) throws -> String {
        let (status, output) = try TestProcess.run("/usr/bin/unshare", try sandbox(appID, in: server) + ["/usr/bin/python3", "-c", python],
                                                   environment: server.environment)
        guard status == 0 else { throw HarnessError("the sandboxed client exited \(status): \(output)") }
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The arguments of `unshare` that run a command in a fake sandbox of `appID`: a root with a
    /// `.flatpak-info` and the host's system folders (and `binds`, at their own paths) bound in.
    static func sandbox(_ appID: String, in server: SoundServer, binds: [String] = []) throws -> [String] {
        let root = server.root + "/sandbox-\(UUID().uuidString.prefix(6))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try "[Application]\nname=\(appID)\nruntime=runtime/org.freedesktop.Platform/x86_64/23.08\n\n[Instance]\ninstance-id=1\n"
            .write(toFile: root + "/.flatpak-info", atomically: true, encoding: .utf8)
        let enter = """
            R=$1; shift
            for d in /usr /etc /tmp /proc /dev /run \(binds.map { "'\($0)'" }.joined(separator: " ")); do
              mkdir -p "$R$d" && mount --rbind "$d" "$R$d" || exit 97
            done
            for l in bin lib lib64 sbin; do [ -e "$R/$l" ] || ln -s "usr/$l" "$R/$l"; done
            exec chroot "$R" "$@"
            """
        return ["--mount", "/bin/sh", "-c", enter, "sh", root]
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
          arguments: SoundServerKind.underTest)
    func sandboxedCallerIdentified(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let server = scenario.server
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

    static let lookAround = """
        import sys, json, dbus
        bus = dbus.SessionBus()
        name, manager = "io.github.audiosession.Bridge1", "/io/github/audiosession/Bridge1"
        bridge = dbus.Interface(bus.get_object(name, manager), name)
        def attempt(what, call):
            try:
                call()
                print(what, "allowed")
            except dbus.exceptions.DBusException as error:
                print(what, error.get_dbus_name())
        own, _ = bridge.CreateSession("com.example.Tunes", dbus.Dictionary({}, signature="sv"))
        print("own", own)
        print("listed", " ".join(sorted(str(p) for p in bridge.ListSessions())))
        snapshot = json.loads(bridge.Snapshot())
        print("snapshot", " ".join(sorted(s["app"] for s in snapshot["sessions"])), "devices" if snapshot["devices"] else "no-devices")
        other = sys.argv[1]
        properties = dbus.Interface(bus.get_object(name, other, introspect=False), "org.freedesktop.DBus.Properties")
        attempt("other-property", lambda: properties.Get("io.github.audiosession.Session1", "StreamToken"))
        attempt("other-all", lambda: properties.GetAll("io.github.audiosession.Session1"))
        mine = dbus.Interface(bus.get_object(name, own), "org.freedesktop.DBus.Properties")
        print("own-app", mine.Get("io.github.audiosession.Session1", "AppId"))
        node = dbus.Interface(bus.get_object(name, manager + "/session"), "org.freedesktop.DBus.Introspectable")
        print("children", " ".join(sorted(part.split('"')[1] for part in node.Introspect().split("<node name=")[1:])))
        attempt("watch", lambda: bridge.WatchEvents())
        attempt("permission", lambda: bridge.SetRecordPermission("com.example.Tunes", "granted"))
        manager_properties = dbus.Interface(bus.get_object(name, manager), "org.freedesktop.DBus.Properties")
        attempt("silent", lambda: manager_properties.Set(name, "SilentMode", dbus.Boolean(True)))
        """

    @Test("a sandboxed caller sees only its own app's sessions, may not follow the event log, and may not set what is the user's",
          arguments: SoundServerKind.underTest)
    func sandboxedCallerSeesItsOwn(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let server = scenario.server
        let browser = try scenario.client()
        let (other, _) = try browser.createSession("org.mozilla.firefox")
        let (podcasts, _) = try browser.createSession("org.gnome.Podcasts")
        let script = "import sys\nsys.argv = ['x', '\(other)']\n" + Self.lookAround
        let output = try Self.runSandboxed("com.example.Tunes", script, in: server)
        var answers: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            answers[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        let own = try #require(answers["own"], "\(output)")
        #expect(answers["listed"] == own, "ListSessions shows only the app's own session: \(output)")
        #expect(answers["snapshot"] == "com.example.Tunes devices", "Snapshot: its own session, every device: \(output)")
        let denied = "io.github.audiosession.Error.AccessDenied"
        #expect(answers["other-property"] == denied, "\(output)")
        #expect(answers["other-all"] == denied, "\(output)")
        #expect(answers["own-app"] == "com.example.Tunes", "\(output)")
        #expect(answers["children"] == String(own.split(separator: "/").last!), "introspection lists its own session only: \(output)")
        #expect(answers["watch"] == denied, "\(output)")
        #expect(answers["permission"] == denied, "\(output)")
        #expect(answers["silent"] == denied, "\(output)")
        #expect(try browser.property(BusClient.manager, "SilentMode", interface: BusClient.bridge) == .bool(false))
        // Outside the sandbox, every session is listed (the sandboxed app's ended with its connection),
        // and the event log may be followed.
        let listed = try browser.call(BusClient.manager, BusClient.bridge, "ListSessions").first?.stringArray ?? []
        #expect(listed == [other, podcasts])
        try browser.call(BusClient.manager, BusClient.bridge, "WatchEvents")
        try browser.setCategory(other, "playback")
        try waitUntil("the event log to reach the watcher") {
            browser.signals("Event", from: BusClient.manager).contains { $0.arguments.first?.stringValue?.contains("session.category") == true }
        }
    }

    @Test("a stream from another app's Flatpak sandbox joins no session of another app, even with its token",
          arguments: SoundServerKind.underTest)
    func sandboxedStreamKeepsToItsApp(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let app = try scenario.client()
        let tunes = try scenario.session(app, "com.example.Tunes", "playback")
        let portal = "pipewire.access.portal.app_id"
        try scenario.server.play(app: "tunes", role: "music",
                                 properties: ["audiosession.token": tunes.token, portal: "com.example.Tunes"])
        let own = try scenario.server.reportedStream(of: "tunes")
        try waitUntil("the stream of the session's own sandbox to join it") {
            try scenario.bridgeView(of: own.index, app)?["session"] as? String == tunes.path
        }
        try scenario.server.play(app: "spy", role: "music", properties: ["audiosession.token": tunes.token, portal: "org.example.Spy"])
        let spy = try scenario.server.reportedStream(of: "spy")
        let placed = try Self.placedSession(of: spy.index, in: scenario, app)
        #expect(placed.path != tunes.path, "the token does not carry another app's stream into the session")
        #expect(placed.app == "org.example.Spy", "governed as the app its sandbox names")
    }

    /// The session the bridge put a sink-input in, once it did: its path and its app.
    static func placedSession(of index: UInt32, in scenario: Scenario, _ client: BusClient) throws -> (path: String, app: String?) {
        var placed: (path: String, app: String?)?
        try waitUntil("the bridge to place sink-input \(index) in a session") {
            let snapshot = try scenario.snapshot(client)
            guard let path = Scenario.stream(index, in: snapshot)?["session"] as? String else { return false }
            let sessions = snapshot["sessions"] as? [[String: Any]] ?? []
            placed = (path, sessions.first { $0["session"] as? String == path }?["app"] as? String)
            return true
        }
        return placed!
    }

    /// PipeWire vouches for a native client's process (`pipewire.sec.pid`); the bridge reads that
    /// process's sandbox, which no property the client sets can change.
    @Test("a native PipeWire client in another app's sandbox does not join a session by its token",
          arguments: SoundServerKind.underTest([.pipewire, .pipewire14, .pipewire16]))
    func nativeClientSandboxRead(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let server = scenario.server
        let app = try scenario.client()
        let tunes = try scenario.session(app, "com.example.Tunes", "playback")
        let silence = try server.writeSilence()
        let binds = try kind.privateRelease.map { [try ModernPipeWire.installed($0).prefix] } ?? []
        let player = try server.spawn("/usr/bin/unshare", try Self.sandbox("org.example.Spy", in: server, binds: binds) + [
            "/bin/sh", "-c", "PIPEWIRE_PROPS='{ audiosession.token = \"\(tunes.token)\" }' exec pw-play --media-role=Music '\(silence)'",
        ])
        defer { player.stop() }
        let stream = try server.reportedStream(of: "pw-play")
        #expect(stream.properties["audiosession.token"] == tunes.token, "\(stream.properties)")
        let placed = try Self.placedSession(of: stream.index, in: scenario, app)
        #expect(placed.path != tunes.path, "the token does not carry another sandbox's stream into the session: \(stream.properties)")
        #expect(placed.app == "org.example.Spy")
    }
}

