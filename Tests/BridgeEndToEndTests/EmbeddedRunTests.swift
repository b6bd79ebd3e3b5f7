// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import ServerTestTraits
import Testing

/// `make run` on a machine with no sound server and no bus (its script, with the debug build).
@Suite("make run's embedded default", .serialized, .threadOfItsOwn)
struct EmbeddedRunTests {
    @Test("with no server and no bus, the run script starts private ones, and status in another shell shows the bridge",
          arguments: ["", "pipewire"])
    func embeddedDefault(server: String) throws {
        let root = NSTemporaryDirectory() + "embedded-\(getpid())-\(server)"
        try FileManager.default.createDirectory(atPath: root + "/run", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let base = ProcessInfo.processInfo.environment
        let environment = ["PATH": base["PATH"] ?? "/usr/bin:/bin", "HOME": root, "XDG_RUNTIME_DIR": root + "/run",
                           "XDG_STATE_HOME": root + "/state", "AUDIOSESSIOND": BridgeDaemon.testBuild,
                           "SERVER": server]
        let script = URL(fileURLWithPath: BridgeDaemon.policiesFolder).deletingLastPathComponent()
            .appendingPathComponent("scripts/run.sh").path
        let run = try TestProcess(script, [], environment: environment, logDirectory: root)
        defer { run.stop() }
        var exports = ""
        try waitUntil("the script to say how to reach the private servers", timeout: .seconds(20)) {
            exports = run.output.split(separator: "\n").first { $0.contains("export DBUS_SESSION_BUS_ADDRESS") }.map(String.init) ?? ""
            return !exports.isEmpty
        }
        func value(_ name: String) -> String {
            guard let range = exports.range(of: "\(name)='") else { return "" }
            return String(exports[range.upperBound...].prefix { $0 != "'" })
        }
        var shell = environment
        shell["DBUS_SESSION_BUS_ADDRESS"] = value("DBUS_SESSION_BUS_ADDRESS")
        shell["PULSE_SERVER"] = value("PULSE_SERVER")
        var status = (status: Int32(1), output: "")
        try waitUntil("audiosessionctl status to reach the bridge", timeout: .seconds(20)) {
            status = try TestProcess.run(BridgeDaemon.buildDirectory + "/audiosessionctl", ["status"], environment: shell)
            return status.status == 0 && status.output.contains("Speaker")
        }
        #expect(status.output.hasPrefix(server == "pipewire" ? "server: PulseAudio (on PipeWire 1.4.2)" : "server: pulseaudio"),
                "\(status.output)")
        #expect(status.output.contains("SESSION") && status.output.contains("DEVICE"))
    }
}

@Suite("make demo", .threadOfItsOwn)
struct DemoTests {
    @Test("make demo's scene prints its interruption and route-change records", arguments: ["", "pipewire"])
    func demo(server: String) throws {
        let root = NSTemporaryDirectory() + "demo-\(getpid())-\(server)"
        try FileManager.default.createDirectory(atPath: root + "/run", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let base = ProcessInfo.processInfo.environment
        let environment = ["PATH": base["PATH"] ?? "/usr/bin:/bin", "HOME": root, "XDG_RUNTIME_DIR": root + "/run",
                           "XDG_STATE_HOME": root + "/state", "AUDIOSESSIOND": BridgeDaemon.testBuild,
                           "DEMO": "1", "SERVER": server]
        let script = URL(fileURLWithPath: BridgeDaemon.policiesFolder).deletingLastPathComponent()
            .appendingPathComponent("scripts/run.sh").path
        let run = try TestProcess(script, [], environment: environment, logDirectory: root)
        defer { run.stop() }
        try waitUntil("the scene to end (so far: \(run.output.suffix(2000)))", timeout: .seconds(60)) { !run.isRunning }
        let output = run.output
        #expect(output.contains("interruption") && output.contains("type=began") && output.contains("type=ended"))
        #expect(output.contains("shouldResume=true"))
        #expect(output.contains("route.change") && output.contains("reason=oldDeviceUnavailable"))
        #expect(output.contains("--- the scene is over"))
    }
}
