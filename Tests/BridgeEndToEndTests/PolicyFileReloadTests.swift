// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// Policy files on a running bridge, and `audiosessionctl policy check`, through the built binaries.
@Suite("Policy files on a running bridge", .serialized, .threadOfItsOwn)
struct PolicyFileReloadTests {
    static let custom = """
        # A test policy.
        schema = 1
        [session]
        category = "%@"
        [match]
        application-names = ["Custom"]

        """

    @Test("a reload on SIGHUP takes a good edit and refuses a broken one, keeping the previous policy in force", arguments: SoundServerKind.underTest)
    func reloadKeepsLastGoodSet(kind: SoundServerKind) throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let folder = server.root + "/policies"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for file in try FileManager.default.contentsOfDirectory(atPath: BridgeDaemon.policiesFolder) where file.hasSuffix(".toml") {
            try FileManager.default.copyItem(atPath: BridgeDaemon.policiesFolder + "/" + file, toPath: folder + "/" + file)
        }
        let customFile = folder + "/custom.toml"
        try Self.custom.replacingOccurrences(of: "%@", with: "playback").write(toFile: customFile, atomically: true, encoding: .utf8)
        let daemon = try BridgeDaemon(server: server, arguments: ["--policies", folder])
        defer { daemon.terminate() }
        let client = try BusClient(address: server.busAddress!)

        /// Plays as "Custom", returns the category of the policy session it got, and stops.
        func categoryOfCustom() throws -> String {
            let player = try server.playDetached(app: "Custom")
            defer { kill(player, SIGKILL) }
            var category = ""
            try waitUntil("a policy session for Custom") {
                let sessions = try client.call(BusClient.manager, BusClient.bridge, "ListSessions")[0].arrayItems ?? []
                for session in sessions {
                    let path = session.stringValue ?? ""
                    if try client.property(path, "AppId") == .string("Custom") {
                        category = try client.property(path, "Category").stringValue ?? ""
                        return true
                    }
                }
                return false
            }
            return category
        }

        #expect(try categoryOfCustom() == "playback")
        try waitUntil("the session to go with its stream", timeout: .seconds(15)) {
            !daemon.records.filter { $0["event"] as? String == "session.released" && $0["app"] as? String == "Custom" }.isEmpty
        }

        // A good edit, then SIGHUP: the new category applies.
        try Self.custom.replacingOccurrences(of: "%@", with: "ambient").write(toFile: customFile, atomically: true, encoding: .utf8)
        kill(daemon.process.pid, SIGHUP)
        try waitUntil("the reload") { daemon.records.filter { $0["event"] as? String == "policy.loaded" }.count >= 30 }
        #expect(try categoryOfCustom() == "ambient")

        // A broken edit, then SIGHUP: reported with file, line and column; the previous set stays.
        try "schema = 1\n[session]\ncategory = \"loud\"\n".write(toFile: customFile, atomically: true, encoding: .utf8)
        kill(daemon.process.pid, SIGHUP)
        try waitUntil("the error record") { daemon.records.contains { $0["event"] as? String == "policy.error" } }
        let error = try #require(daemon.records.first { $0["event"] as? String == "policy.error" })
        #expect(error["file"] as? String == customFile)
        #expect(error["line"] as? Int == 3 && error["column"] as? Int == 12)
        #expect((error["message"] as? String)?.contains("unknown category 'loud'") == true)
        try waitUntil("the session to go with its stream", timeout: .seconds(15)) {
            daemon.records.filter { $0["event"] as? String == "session.released" && $0["app"] as? String == "Custom" }.count >= 2
        }
        #expect(try categoryOfCustom() == "ambient", "the last good set is still in force")

        // An edit is picked up without SIGHUP too (inotify).
        try waitUntil("the session to go with its stream", timeout: .seconds(15)) {
            daemon.records.filter { $0["event"] as? String == "session.released" && $0["app"] as? String == "Custom" }.count >= 3
        }
        let before = daemon.records.filter { $0["event"] as? String == "policy.loaded" }.count
        try Self.custom.replacingOccurrences(of: "%@", with: "soloAmbient").write(toFile: customFile, atomically: true, encoding: .utf8)
        try waitUntil("the reload on change") { daemon.records.filter { $0["event"] as? String == "policy.loaded" }.count > before }
        #expect(try categoryOfCustom() == "soloAmbient")
    }

    /// The bridge counts as ready once it owns its bus name (systemd's Type=dbus, and a reload after it).
    /// Under `strace`, every `rt_sigaction` of the bridge is held 150 ms, so a bridge that took its name
    /// before it handled SIGHUP would own it for hundreds of milliseconds without the handler, and the
    /// SIGHUP sent as soon as the name is seen would end it (the signal's default). Handled first, it
    /// reloads the policies.
    @Test("a SIGHUP as soon as the bridge owns its bus name reloads the policies: the handlers come before the name")
    func signalsHandledBeforeTheName() throws {
        let server = try SoundServer(.pulseaudio)
        defer { server.stop() }
        let log = server.root + "/logs/events-signals.jsonl"
        let traced = try server.spawn(try TestProcess.which("strace"), [
            "-qq", "-o", "/dev/null", "-e", "trace=rt_sigaction", "-e", "inject=rt_sigaction:delay_enter=150000",
            BridgeDaemon.testBuild, "--server", server.address, "--log", "json", "--log-file", log,
            "--policies", BridgeDaemon.policiesFolder,
        ])
        // strace leaves its tracee running when it is stopped: the bridge (its child) is ended first.
        defer {
            let children = textSoFar("/proc/\(traced.pid)/task/\(traced.pid)/children").split(separator: " ").compactMap { Int32($0) }
            for child in children { kill(child, SIGTERM) }
            try? waitUntil("the bridge under strace to end") { children.allSatisfy { kill($0, 0) != 0 } }
            _ = traced.stop()
        }
        var bridge: Int32 = 0
        try waitUntil("the bridge to own its name", timeout: .seconds(60)) {
            guard traced.isRunning else { throw HarnessError("strace or the bridge exited: \(traced.output)") }
            let (status, text) = try TestProcess.run("busctl", ["--address=\(server.busAddress!)", "status", "io.github.audiosession.Bridge1"],
                                                     environment: server.environment)
            let pid = text.split(separator: "\n").first { $0.hasPrefix("PID=") }.flatMap { Int32($0.dropFirst(4)) }
            bridge = pid ?? 0
            return status == 0 && pid != nil
        }
        kill(bridge, SIGHUP)
        let files = try FileManager.default.contentsOfDirectory(atPath: BridgeDaemon.policiesFolder).filter { $0.hasSuffix(".toml") }.count
        try waitUntil("the load at start and the reload", timeout: .seconds(30)) {
            guard traced.isRunning else { throw HarnessError("the bridge ended on SIGHUP: \(traced.output)") }
            return jsonLines(textSoFar(log)).filter { $0["event"] as? String == "policy.loaded" }.count >= 2 * files
        }
        #expect(kill(bridge, 0) == 0, "the bridge runs on")
    }

    @Test("audiosessionctl policy check: 0 for good files, 1 with file:line:column for a broken one, 2 for bad usage")
    func policyCheck() throws {
        let ctl = BridgeDaemon.buildDirectory + "/audiosessionctl"
        let shipped = try FileManager.default.contentsOfDirectory(atPath: BridgeDaemon.policiesFolder)
            .filter { $0.hasSuffix(".toml") }.map { BridgeDaemon.policiesFolder + "/" + $0 }
        let good = try TestProcess.run(ctl, ["policy", "check"] + shipped, environment: ProcessInfo.processInfo.environment)
        #expect(good.status == 0)
        #expect(good.output.contains("15 file(s), 15 policies: ok"))
        let broken = NSTemporaryDirectory() + "broken-\(getpid()).toml"
        try "schema = 1\n[ducking]\nlevel = 3\n".write(toFile: broken, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: broken) }
        let bad = try TestProcess.run(ctl, ["policy", "check", broken], environment: ProcessInfo.processInfo.environment)
        #expect(bad.status == 1)
        #expect(bad.output.contains("\(broken):3:9: ducking.level must be within 0.0…1.0"))
        let usage = try TestProcess.run(ctl, ["policy", "verify"], environment: ProcessInfo.processInfo.environment)
        #expect(usage.status == 2)

        let folder = ["--policies", BridgeDaemon.policiesFolder]
        let list = try TestProcess.run(ctl, ["policy", "list"] + folder, environment: ProcessInfo.processInfo.environment)
        #expect(list.status == 0)
        let rows = list.output.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" }
        #expect(rows.first == "POLICY" && rows.dropFirst().first == "screen-reader" && rows.last == "default")
        #expect(rows.count == 16)
        let explainBinary = try TestProcess.run(ctl, ["policy", "explain", "mpv"] + folder, environment: ProcessInfo.processInfo.environment)
        #expect(explainBinary.output.contains("mpv: media-player, because 'mpv' is in [match] desktop-ids"), "\(explainBinary.output)")
        let explainRole = try TestProcess.run(ctl, ["policy", "explain", "someapp", "--role", "game"] + folder,
                                              environment: ProcessInfo.processInfo.environment)
        #expect(explainRole.output.contains("someapp: game, because no rule names the app and it is the fallback for media.role 'game'"))
        let explainNone = try TestProcess.run(ctl, ["policy", "explain", "someapp"] + folder, environment: ProcessInfo.processInfo.environment)
        #expect(explainNone.output.contains("no policy"))
    }
}
