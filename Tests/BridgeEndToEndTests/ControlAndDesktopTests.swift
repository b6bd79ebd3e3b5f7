// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import DBusKit
import Foundation
import ServerTestTraits
import Testing

/// `audiosessionctl status`, `monitor` and `silent` through the built binary, and the desktop's lock.
@Suite("audiosessionctl and the desktop", .serialized, .threadOfItsOwn)
struct ControlAndDesktopTests {
    @Test("status shows the bridge, its devices and sessions; monitor prints the log's records live; silent sets the switch", arguments: SoundServerKind.underTest)
    func statusMonitorSilent(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let (server, daemon) = (scenario.server, scenario.daemon)
        let ctl = BridgeDaemon.buildDirectory + "/audiosessionctl"
        let monitor = try server.spawn(ctl, ["monitor", "--format", "json"])
        let client = try BusClient(address: server.busAddress!)
        try waitUntil("the monitor to follow the log") {
            _ = try client.createSession("warm-up")
            return monitor.output.contains("\"session.created\"")
        }
        let music = try client.createSession("music")
        try client.setCategory(music.path, "playback")
        try client.setActive(music.path, true)

        let status = try TestProcess.run(ctl, ["status"], environment: server.environment)
        #expect(status.status == 0)
        #expect(status.output.hasPrefix("server: \(kind.serverName) \(kind == .pulseaudio ? "16.1" : "15.0.0")"), "\(status.output)")
        #expect(status.output.contains("SESSION") && status.output.contains("music") && status.output.contains("playback"))
        #expect(status.output.contains("speaker") && status.output.contains("Speaker"))
        let json = try TestProcess.run(ctl, ["status", "--format", "json"], environment: server.environment)
        let snapshot = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect((snapshot["sessions"] as? [[String: Any]])?.contains { $0["app"] as? String == "music" } == true)

        #expect(try TestProcess.run(ctl, ["silent", "on"], environment: server.environment).status == 0)
        #expect(try client.property(BusClient.manager, "SilentMode", interface: BusClient.bridge) == .bool(true))

        // The monitor printed the same records as the log, as JSON Lines.
        try waitUntil("the monitor to show the activation") { monitor.output.contains("\"session.active\"") }
        let printed = jsonLines(monitor.output)
        let logged = daemon.records
        for record in printed where record["event"] as? String == "session.active" {
            #expect(logged.contains { ($0["ts"] as? String) == (record["ts"] as? String) && ($0["event"] as? String) == "session.active" })
        }
        #expect(printed.allSatisfy { $0["ts"] != nil && $0["event"] != nil })
        #expect(try TestProcess.run(ctl, ["status"], environment: ["PATH": "/usr/bin:/bin"]).status == 1,
                "no bus: a runtime failure, said in one line")
    }

    @Test("locking through a stand-in ScreenSaver mutes an ambient session's stream, unlocking restores it; playback is untouched; a lock from a client that does not own the name is ignored",
          arguments: SoundServerKind.underTest)
    func screenLock(kind: SoundServerKind) throws {
        let scenario = try Scenario(kind)
        defer { scenario.stop() }
        let server = scenario.server
        let client = try BusClient(address: server.busAddress!)
        let game = try client.createSession("game")
        try client.setCategory(game.path, "ambient")
        try client.setActive(game.path, true)
        try server.play(app: "game", properties: ["audiosession.token": game.token])
        let book = try client.createSession("audiobook")
        try client.setCategory(book.path, "playback", mode: "spokenAudio")
        try client.setActive(book.path, true)
        try server.play(app: "audiobook", properties: ["audiosession.token": book.token])
        let effects = try server.reportedStream(of: "game"), speech = try server.reportedStream(of: "audiobook")
        // A stand-in for the desktop's screen saver, announcing the lock as GNOME and KDE do.
        let standIn = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Clients/screensaver_standin.py").path
        let screenSaver = try TestProcess("/usr/bin/python3", [standIn, "own"], environment: server.environment,
                                          logDirectory: server.root + "/logs", name: "screensaver")
        defer { screenSaver.stop() }
        try waitUntil("the screen saver to own its name (\(screenSaver.output))") { screenSaver.output.contains("ready") }
        func screenLocked() throws -> BusValue { try client.property(BusClient.manager, "ScreenLocked", interface: BusClient.bridge) }
        func forge(_ locked: Bool) throws {
            let (status, output) = try TestProcess.run("/usr/bin/python3", [standIn, "forge", "\(locked)"], environment: server.environment)
            #expect(status == 0, "\(output)")
        }

        try forge(true)
        #expect(try screenLocked() == .bool(false), "a lock from a client that does not own the name")
        #expect(try server.reportedStream(index: effects.index)?.mute == false)
        kill(screenSaver.pid, SIGUSR1)
        try waitUntil("the game muted by the lock") { try server.reportedStream(index: effects.index)?.mute == true }
        #expect(try server.reportedStream(index: speech.index)?.mute == false)
        #expect(try screenLocked() == .bool(true))
        try forge(false)
        #expect(try screenLocked() == .bool(true), "an unlock from a client that does not own the name")
        kill(screenSaver.pid, SIGUSR2)
        try waitUntil("the game unmuted") { try server.reportedStream(index: effects.index)?.mute == false }
        #expect(try server.reportedStream(index: speech.index)?.mute == false)
    }
}

@Suite("audiosessiond --headless", .serialized, .threadOfItsOwn)
struct HeadlessTests {
    @Test("--headless --log json logs stream, device and route records for plain pacat clients, each valid JSON", arguments: SoundServerKind.underTest)
    func headlessJSONLog(kind: SoundServerKind) throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let log = server.root + "/logs/headless.jsonl"
        let daemon = try server.spawn(BridgeDaemon.testBuild, [
            "--headless", "--server", server.address, "--log", "json", "--log-file", log,
            "--policies", BridgeDaemon.policiesFolder,
        ])
        defer { daemon.stop() }
        var records: [[String: Any]] { jsonLines(textSoFar(log)) }
        try waitUntil("the devices") { records.contains { $0["event"] as? String == "device.added" } }
        try server.playDetached(app: "Music", role: "music")
        let stream = try server.reportedStream(of: "Music")
        let modules = try server.plug(.wiredHeadphones)
        try server.move(sinkInput: stream.index, to: "headphones")
        for module in modules { try server.unloadModule(module) }
        try waitUntil("a route change for the removal") {
            records.contains { $0["event"] as? String == "route.change" && $0["reason"] as? String == "oldDeviceUnavailable" }
        }
        // One read of the file for both counts (the bridge may be writing a record meanwhile); a last
        // line without its newline is still being written.
        let written = textSoFar(log)
        let complete = written.lastIndex(of: "\n").map { String(written[...$0]) } ?? ""
        #expect(jsonLines(complete).count == complete.split(separator: "\n").count, "every line is one JSON object")
        let required: [String: [String]] = [
            "device.added": ["device", "port", "portType"], "device.removed": ["device", "port", "portType"],
            "stream.added": ["stream", "app", "role", "session"], "session.created": ["session", "app", "kind", "policy"],
            "route.change": ["session", "app", "reason", "previousRoute", "currentRoute"],
        ]
        for (event, fields) in required {
            let matching = records.filter { $0["event"] as? String == event }
            #expect(!matching.isEmpty, "a \(event) record")
            for record in matching {
                #expect(record["ts"] is String)
                for field in fields { #expect(record.keys.contains(field), "\(event) has \(field)") }
            }
        }
        let timestamp = try #require(records.first?["ts"] as? String)
        #expect(timestamp.hasSuffix("Z") && timestamp.count == "2026-11-22T12:25:59.312Z".count)
        let change = try #require(records.first { $0["event"] as? String == "route.change" && $0["reason"] as? String == "oldDeviceUnavailable" })
        let previous = try #require(change["previousRoute"] as? [String: Any])
        #expect((previous["outputs"] as? [[String: Any]])?.first?["portType"] as? String == "Headphones")
    }
}

extension HeadlessTests {
    @Test("--journald sends each record to the journal's socket with structured fields", arguments: SoundServerKind.underTest)
    func journald(kind: SoundServerKind) throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let journal = try JournalStandIn(path: server.root + "/journal.socket")
        var environment = server.environment
        environment["AUDIOSESSION_JOURNAL_SOCKET"] = journal.path
        let daemon = try TestProcess(BridgeDaemon.testBuild,
                                     ["--headless", "--journald", "--server", server.address, "--log-file", server.root + "/logs/j.log"],
                                     environment: environment, logDirectory: server.root + "/logs")
        defer { daemon.stop() }
        try journal.waitFor("a device record and the server's default in the journal") { entries in
            entries.contains { $0["AUDIOSESSION_EVENT"] == "device.added" && $0["AUDIOSESSION_PORTTYPE"] == "Speaker" }
                && entries.contains { $0["AUDIOSESSION_EVENT"] == "server.default" }
        }
        let entry = try #require(journal.entries.first { $0["AUDIOSESSION_EVENT"] == "device.added" })
        let decision = try #require(journal.entries.first { $0["AUDIOSESSION_EVENT"] == "server.default" })
        // Detail at 7, decisions at 6, each kind with its own MESSAGE_ID.
        #expect(entry["SYSLOG_IDENTIFIER"] == "audiosessiond" && entry["PRIORITY"] == "7")
        #expect(decision["PRIORITY"] == "6")
        #expect(entry["MESSAGE_ID"]?.count == 32 && decision["MESSAGE_ID"]?.count == 32)
        #expect(entry["MESSAGE_ID"] != decision["MESSAGE_ID"])
        #expect(entry["MESSAGE"]?.contains("device.added") == true)
        #expect(entry["AUDIOSESSION_DEVICE"]?.hasPrefix("s") == true)
    }

    /// Started by systemd (`$JOURNAL_STREAM` names its standard output), the bridge logs to the journal
    /// natively and writes no text lines as well: each record reaches the journal once.
    @Test("Under systemd the records go to the journal once", arguments: SoundServerKind.underTest)
    func journalStream(kind: SoundServerKind) throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let journal = try JournalStandIn(path: server.root + "/journal.socket")
        let stdoutPath = server.root + "/logs/stdout.txt"
        try #require(FileManager.default.createFile(atPath: stdoutPath, contents: nil))
        var status = stat()
        #expect(stat(stdoutPath, &status) == 0)
        var environment = server.environment
        environment["AUDIOSESSION_JOURNAL_SOCKET"] = journal.path
        environment["JOURNAL_STREAM"] = "\(status.st_dev):\(status.st_ino)"
        let daemonPath = BridgeDaemon.testBuild
        let daemon = try TestProcess("/bin/sh", ["-c", "exec '\(daemonPath)' --headless --server '\(server.address)' >>'\(stdoutPath)'"],
                                     environment: environment, logDirectory: server.root + "/logs")
        defer { daemon.stop() }
        try journal.waitFor("the server's default in the journal") { entries in
            entries.contains { $0["AUDIOSESSION_EVENT"] == "server.default" }
        }
        let text = try String(contentsOfFile: stdoutPath, encoding: .utf8)
        #expect(!text.contains("server.default") && !text.contains("device.added"), "\(text)")
    }
}

/// A stand-in for the journal: a datagram socket at a path of the test's, read without blocking.
final class JournalStandIn {
    let path: String
    private let fd: Int32
    private(set) var entries: [[String: String]] = []

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, bound == 0 else { throw HarnessError("cannot bind the journal stand-in at \(path)") }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(fd) }

    /// Reads what arrived until `condition` holds for every entry so far.
    func waitFor(_ what: String, _ condition: @escaping ([[String: String]]) -> Bool) throws {
        try waitUntil(what) {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                guard count > 0 else { break }
                var entry: [String: String] = [:]
                for line in String(decoding: buffer[0..<count], as: UTF8.self).split(separator: "\n") {
                    guard let equals = line.firstIndex(of: "=") else { continue }
                    entry[String(line[..<equals])] = String(line[line.index(after: equals)...])
                }
                entries.append(entry)
            }
            return condition(entries)
        }
    }
}

/// A private system bus with a stand-in logind (two login sessions, the user's display session "1"),
/// and a bridge started on it with `environment` added.
struct LogindStandIn {
    let server: SoundServer
    let environment: [String: String]
    let standIn: TestProcess
    let daemon: TestProcess

    init(_ server: SoundServer, locked: String = "", bridgeEnvironment: [String: String] = [:]) throws {
        self.server = server
        try server.startSystemBus()
        var environment = server.environment
        environment["XDG_SESSION_ID"] = nil
        self.environment = environment
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Clients/login1_standin.py").path
        let standIn = try TestProcess("/usr/bin/python3", [script], environment: environment.merging(["STANDIN_LOCKED": locked]) { $1 },
                                      logDirectory: server.root + "/logs", name: "logind")
        self.standIn = standIn
        try waitUntil("the stand-in logind (\(standIn.output))") { standIn.output.contains("ready") }
        daemon = try TestProcess(BridgeDaemon.testBuild,
                                 ["--server", server.address, "--policies", BridgeDaemon.policiesFolder],
                                 environment: environment.merging(bridgeEnvironment) { $1 }, logDirectory: server.root + "/logs")
        try waitUntil("the bridge on the session bus") {
            try TestProcess.run("busctl", ["--address=\(server.busAddress!)", "status", "io.github.audiosession.Bridge1"],
                                environment: environment).status == 0
        }
    }

    /// `lock N`, `unlock N`, `sleep`, `wake`.
    func send(_ command: String) throws {
        let result = try TestProcess.run("busctl", ["--address=\(environment["DBUS_SYSTEM_BUS_ADDRESS"]!)", "call",
                                                    "org.freedesktop.login1", "/org/freedesktop/login1",
                                                    "io.github.audiosession.Test", "Do", "s", command], environment: environment)
        #expect(result.status == 0, "\(result.output)")
    }

    func stop() {
        daemon.stop()
        standIn.stop()
    }
}

@Suite("logind on the system bus", .serialized, .threadOfItsOwn)
struct LogindTests {
    @Test("LockedHint of the bridge's own login session silences ambient output, another session's does not; PrepareForSleep/wake gives wakeFromSleep",
          arguments: SoundServerKind.underTest)
    func lockedHintAndSleep(kind: SoundServerKind) throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let logind = try LogindStandIn(server)
        defer { logind.stop() }
        let client = try BusClient(address: server.busAddress!)
        let game = try client.createSession("game")
        try client.setCategory(game.path, "ambient")
        try client.setActive(game.path, true)
        try server.play(app: "game", properties: ["audiosession.token": game.token])
        let effects = try server.reportedStream(of: "game")
        try logind.send("lock 1")
        try waitUntil("the game muted by the lock") { try server.reportedStream(index: effects.index)?.mute == true }
        try logind.send("unlock 1")
        try waitUntil("the game unmuted") { try server.reportedStream(index: effects.index)?.mute == false }
        // Another login session locks; then a sleep, which the bridge reads after the lock (one sender).
        try logind.send("lock 2")
        // The headphones are there before the sleep, so that the move after the wake comes well within
        // the wake window (2 s) on every server.
        try server.plug(.wiredHeadphones)
        try logind.send("sleep")
        try waitUntil("the sleep suspending the game") { client.interruptions(game.path).contains { $0.reason == "appWasSuspended" } }
        #expect(try client.property(BusClient.manager, "ScreenLocked", interface: BusClient.bridge) == .bool(false),
                "another login session's lock")
        try logind.send("wake")
        try server.move(sinkInput: effects.index, to: "headphones")
        try waitUntil("a wakeFromSleep route change") { !client.routeChanges(game.path).filter { $0.reason == "wakeFromSleep" }.isEmpty }
    }

    /// (XDG_SESSION_ID of the bridge, or nil for the display session; whether it is locked at the start)
    static let startRows: [(String?, Bool)] = [(nil, true), ("1", true), ("2", false)]

    @Test("the lock of the bridge's own session is read at the start: $XDG_SESSION_ID's, else the user's display session",
          arguments: SoundServerKind.underTest.flatMap { kind in startRows.map { (kind, $0.0, $0.1) } })
    func lockedAtStart(kind: SoundServerKind, sessionID: String?, locked: Bool) throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let logind = try LogindStandIn(server, locked: "1", bridgeEnvironment: sessionID.map { ["XDG_SESSION_ID": $0] } ?? [:])
        defer { logind.stop() }
        // The bridge reads the lock before it takes its name on the session bus.
        let client = try BusClient(address: server.busAddress!)
        #expect(try client.property(BusClient.manager, "ScreenLocked", interface: BusClient.bridge) == .bool(locked))
    }
}
