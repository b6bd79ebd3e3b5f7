// SPDX-License-Identifier: Apache-2.0
import Foundation

/// `audiosessiond` running against a private ``SoundServer`` and its bus, as a separate process.
public final class BridgeDaemon: @unchecked Sendable {
    public let server: SoundServer
    public private(set) var process: TestProcess
    /// The event log (`--log json`), one record per line.
    public let logPath: String
    /// The daemon's executable.
    public let executable: String

    /// Starts the daemon built next to the tests (or `executable`) and waits until it owns its bus name.
    public init(server: SoundServer, arguments: [String] = [], executable: String = BridgeDaemon.testBuild) throws {
        self.server = server
        self.executable = executable
        logPath = server.root + "/logs/events-\(UUID().uuidString.prefix(6)).jsonl"
        process = try Self.launch(executable, server, logPath, arguments)
        try waitUntilServing()
    }

    /// The directory of the test binary, where SwiftPM also puts the executables.
    public static var buildDirectory: String {
        URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
            .deletingLastPathComponent().path
    }

    /// The daemon built next to the tests (the debug build).
    public static var testBuild: String { buildDirectory + "/audiosessiond" }

    /// The release build `make test` makes before the tests (`make programs`): for a behaviour that
    /// shows only at the pace of the build people run.
    public static var releaseBuild: String { Repository.root + "/.build/release/audiosessiond" }

    static func launch(_ executable: String, _ server: SoundServer, _ logPath: String, _ arguments: [String]) throws -> TestProcess {
        try server.spawn(executable,
                         ["--server", server.address, "--log", "json", "--log-file", logPath, "--policies", Self.policiesFolder]
                            + arguments)
    }

    /// The repository's shipped policy files.
    public static var policiesFolder: String { Repository.root + "/policies" }

    /// Polls the bus until the bridge owns `io.github.audiosession.Bridge1`.
    public func waitUntilServing() throws {
        try waitUntil("audiosessiond to own its name", timeout: .seconds(15)) {
            guard process.isRunning else { throw HarnessError("audiosessiond exited: \(process.output)") }
            let (status, _) = try TestProcess.run("busctl", ["--address=\(server.busAddress!)", "status", "io.github.audiosession.Bridge1"],
                                                  environment: server.environment)
            return status == 0
        }
    }

    /// The lines of a process's memory map that are PulseAudio's shared memory pools.
    public static func sharedPools(of pid: Int32) -> [Substring] {
        textSoFar("/proc/\(pid)/maps").split(separator: "\n").filter { $0.contains("memfd:pulseaudio") }
    }

    /// How many of the server's clients are the bridge's connections.
    public func serverConnections() throws -> Int {
        try server.pactl(["list", "clients"]).components(separatedBy: "io.github.audiosession.Bridge1").count - 1
    }

    /// On PulseAudio, waits until the bridge's connection with shared memory has taken over (started
    /// with `--shared-memory-after`): the bridge maps the server's pools and the server lists one
    /// connection of the bridge's. pipewire-pulse shares no ring buffer, and there the bridge keeps its
    /// first connection.
    public func waitUntilSharingMemory(timeout: Duration = .seconds(15)) throws {
        guard server.kind == .pulseaudio else { return }
        var (pools, connections) = (0, 0)
        try waitUntil("the bridge's connection with shared memory to take over (last seen: \(pools) pools mapped, "
            + "\(connections) connections of the bridge's listed by the server; \(diagnosis(lastRecords: 4)))", timeout: timeout) {
            guard process.isRunning else { throw HarnessError("audiosessiond exited: \(process.output)") }
            pools = Self.sharedPools(of: process.pid).count
            connections = try serverConnections()
            return pools > 0 && connections == 1
        }
    }

    /// Kills the daemon with SIGKILL (no chance to undo anything).
    public func kill9() { process.kill9() }

    /// Stops it with SIGTERM and waits for it to exit; returns its exit status. A bridge still there
    /// after 20 s (it waits at most 10 s for a server that neither answers nor goes away) is killed, and its status says so (137).
    @discardableResult
    public func terminate() -> Int32 {
        process.stop(grace: .seconds(20))
    }

    /// Starts it again (same journal, same log).
    public func restart(arguments: [String] = []) throws {
        process = try Self.launch(executable, server, logPath, arguments)
        try waitUntilServing()
    }

    /// The event-log records so far, parsed.
    public var records: [[String: Any]] { jsonLines(textSoFar(logPath)) }

    /// The event-log records of one kind (their `event`), so far.
    public func records(_ event: String) -> [[String: Any]] { records.filter { $0["event"] as? String == event } }

    /// Whether the bridge still runs, the end of what it printed and its last `count` event-log
    /// records: what a failure message needs to say what the bridge was doing.
    public func diagnosis(lastRecords count: Int) -> String {
        let records = textSoFar(logPath).split(separator: "\n").suffix(count).joined(separator: "\n")
        let state = process.isRunning ? "the bridge is running" : "the bridge exited"
        return "\(state); its output: \(process.output.suffix(2000))\nits last records:\n\(records)"
    }
}
