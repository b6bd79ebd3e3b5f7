// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Which sound server a test runs against: the four stacks of DESIGN §4.
public enum SoundServerKind: String, CaseIterable, Sendable, CustomStringConvertible {
    /// PulseAudio 16.1 (Debian 12).
    case pulseaudio
    /// PipeWire 0.3.65 with WirePlumber 0.4.13 and pipewire-pulse (Debian 12).
    case pipewire
    /// PipeWire 1.4.2 with WirePlumber 0.5.8 and pipewire-pulse, from bookworm-backports, unpacked into
    /// a private prefix by `make test` (``ModernPipeWire``).
    case pipewire14 = "pipewire-1.4"
    /// PipeWire 1.6.9 with WirePlumber 0.5.18 and pipewire-pulse, from sid (what Fedora, Arch and the
    /// next Ubuntu run), unpacked into a private prefix with sid's C library by `make test`.
    case pipewire16 = "pipewire-1.6"
    public var description: String { rawValue }

    /// The stacks the tests run on: every stack, or those `AUDIOSESSION_STACKS` names (a comma-separated
    /// list of the names above, e.g. `pipewire,pipewire-1.6`), for running one suite on one stack.
    public static var underTest: [SoundServerKind] {
        guard let names = ProcessInfo.processInfo.environment["AUDIOSESSION_STACKS"], !names.isEmpty else { return allCases }
        return names.split(separator: ",").map { name in
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard let kind = SoundServerKind(rawValue: trimmed) else {
                fatalError("AUDIOSESSION_STACKS names an unknown stack '\(trimmed)'; the stacks are \(allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return kind
        }
    }

    /// The stacks of this list the tests run on (``underTest``), in the list's order.
    public static func underTest(_ kinds: [SoundServerKind]) -> [SoundServerKind] {
        let chosen = underTest
        return kinds.filter(chosen.contains)
    }

    /// The private prefix of a newer PipeWire, or nil for the system's servers.
    public var privateRelease: ModernPipeWire.Release? {
        switch self {
        case .pulseaudio, .pipewire: nil
        case .pipewire14: .v1_4
        case .pipewire16: .v1_6
        }
    }

    /// Whether the stack's session manager is WirePlumber 0.5 (its settings, its role-based policy).
    public var hasWirePlumber05: Bool { privateRelease != nil }

    /// The server name `pactl info` and the bridge's `ServerName` report for this stack.
    public var serverName: String {
        switch self {
        case .pulseaudio: "pulseaudio"
        case .pipewire: "PulseAudio (on PipeWire 0.3.65)"
        case .pipewire14: "PulseAudio (on PipeWire 1.4.2)"
        case .pipewire16: "PulseAudio (on PipeWire 1.6.9)"
        }
    }
}

/// A private sound server for one test: PulseAudio (`pulseaudio -n` with null devices) or PipeWire
/// (`dbus-daemon`, `pipewire`, `wireplumber`, `pipewire-pulse`), each in its own temporary
/// `XDG_RUNTIME_DIR`, with readiness by polling, a watchdog, and teardown.
public final class SoundServer: @unchecked Sendable {
    public let kind: SoundServerKind
    /// The temporary folder that holds the runtime directory, state, configuration and logs.
    public let root: String
    public let runtimeDirectory: String
    /// `unix:…/pulse/native`.
    public var address: String { "unix:\(runtimeDirectory)/pulse/native" }
    /// The private session bus.
    public private(set) var busAddress: String?
    /// The environment a client of this server needs.
    public internal(set) var environment: [String: String]
    /// What PulseAudio and WirePlumber (the processes that speak to BlueZ) need for the stand-in.
    var bluetoothEnvironment: [String: String] = [:]

    private var processes: [TestProcess] = []
    private var pulseServer: TestProcess?
    /// PipeWire's session manager (nil on PulseAudio).
    var wirePlumber: TestProcess?
    /// PipeWire's own process (nil on PulseAudio).
    private var pipeWireDaemon: TestProcess?
    /// The BlueZ stand-in, when the server has the simulated headset.
    var bluezStandIn: TestProcess?
    /// The process that answers libpulse clients (pulseaudio, or pipewire-pulse).
    public var serverPID: Int32? { pulseServer?.pid }
    /// WirePlumber's process (nil on PulseAudio).
    public var graphManagerPID: Int32? { wirePlumber?.pid }
    /// Whether the process that answers libpulse clients still runs.
    public var serverIsRunning: Bool { pulseServer?.isRunning ?? false }
    /// The server's processes that have ended on their own, each named with how it ended; empty while
    /// every one of them runs. A process the test killed (``killServer()``, ``restartWirePlumber()``)
    /// is not named. A test that takes a device away asserts it, so that a server process that crashed
    /// there does not pass for the device's going; every server test case is failed for it at the end
    /// (``ServerProcessWatch``).
    public var endedServerProcesses: [String] {
        serverProcesses.filter { !$0.process.isRunning }.map(Self.ending)
    }
    /// A server process that has ended, named with how it ended.
    private static func ending(_ named: (name: String, process: TestProcess)) -> String {
        "\(named.name) \(named.process.exitDescription)"
    }
    /// The server's own processes by name, those the test killed on purpose left out.
    private var serverProcesses: [(name: String, process: TestProcess)] {
        let named = [("pipewire", pipeWireDaemon), ("wireplumber", wirePlumber),
                     (kind == .pulseaudio ? "pulseaudio" : "pipewire-pulse", pulseServer)]
        let killed = lock.withLock { killedByTest }
        return named.compactMap { name, process in process.flatMap { killed.contains($0.pid) ? nil : (name, $0) } }
    }
    /// Whether the process that answers libpulse clients still runs, and the end of what it printed:
    /// for the message of a test or benchmark that timed out.
    public var serverState: String {
        guard let pulseServer else { return "no server process" }
        let state = pulseServer.isRunning ? "is running" : pulseServer.exitDescription
        return "\(kind) \(state); it printed: \(pulseServer.output.suffix(1500))"
    }

    /// The last lines WirePlumber printed (at its default level, its warnings), for a failure message;
    /// empty on PulseAudio.
    public var graphManagerOutput: String {
        guard let wirePlumber else { return "" }
        return wirePlumber.output.split(separator: "\n").suffix(40).joined(separator: "\n")
    }
    /// The test's client processes and the detached ones (by pid and start time, ``identity(of:)``), both
    /// under `lock`; ended at `stop()`.
    var clients: [TestProcess] = []
    var detached: [String] = []
    private var watchdog: DispatchWorkItem?
    let lock = NSLock()
    /// The test case's watch, told at the first ``stop()`` which server processes ended on their own.
    private let watch = ServerProcessWatch.current
    /// The server processes the test ended on purpose, by pid; under `lock`.
    private var killedByTest: Set<Int32> = []
    /// Whether ``stop()`` has run; under `lock`.
    private var stopped = false

    /// Lines added to PulseAudio's startup script (`load-module …`); PulseAudio only.
    private let extraScript: [String]

    /// Starts a server of `kind` and waits until it answers. The watchdog ends everything after
    /// `lifetime`, so that a hung test cannot leave servers behind. With `bluetoothHeadset`, a private
    /// system bus with the BlueZ stand-in comes first, and the server waits until the headset's card is
    /// there (see `SoundServer+Bluetooth.swift`).
    public init(_ kind: SoundServerKind, lifetime: Duration = .seconds(300), extraModules: [String] = [],
                bluetoothHeadset: Bool = false) throws {
        Self.reapLeftovers()
        self.kind = kind
        extraScript = (extraModules + (bluetoothHeadset ? ["module-bluetooth-discover"] : [])).map { "load-module \($0)" }
        root = NSTemporaryDirectory() + "audiosession-\(kind)-\(UUID().uuidString.prefix(8))"
        runtimeDirectory = root + "/run"
        for folder in ["run", "home", "config", "state", "logs"] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(folder)", withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        try Self.identity(of: getpid()).write(toFile: root + "/owner.pid", atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        environment["HOME"] = root + "/home"
        environment["XDG_CONFIG_HOME"] = root + "/config"
        environment["XDG_STATE_HOME"] = root + "/state"
        environment["PULSE_SERVER"] = "unix:\(runtimeDirectory)/pulse/native"
        environment["PULSE_RUNTIME_PATH"] = runtimeDirectory + "/pulse"
        environment.removeValue(forKey: "DISPLAY")
        environment.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        self.environment = environment
        let item = DispatchWorkItem { [weak self] in self?.stop() }
        watchdog = item
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Int(lifetime.components.seconds)), execute: item)
        do {
            if bluetoothHeadset { try startBluetoothStandIn() }
            switch kind {
            case .pulseaudio: try startPulseAudio()
            case .pipewire, .pipewire14, .pipewire16: try startPipeWire()
            }
            try waitUntilAnswering()
            if bluetoothHeadset { try waitForHeadsetCard() }
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    var logs: String { root + "/logs" }

    /// Starts a process with this server's environment; it is ended at teardown.
    public func spawn(_ executable: String, _ arguments: [String], extraEnvironment: [String: String] = [:]) throws
        -> TestProcess
    {
        let process = try TestProcess(executable, arguments, environment: environment.merging(extraEnvironment) { $1 },
                                      logDirectory: logs)
        lock.withLock { processes.append(process) }
        recordChild(process.pid)
        return process
    }

    /// Starts a `dbus-daemon` listening at `socket` in the runtime directory; returns its address once
    /// it listens.
    private func spawnBus(_ socket: String, _ what: String) throws -> String {
        let path = runtimeDirectory + "/" + socket
        _ = try spawn("dbus-daemon", ["--session", "--nofork", "--nopidfile", "--address=unix:path=\(path)"])
        try waitUntil(what) { unixSocketAccepts(path) }
        return "unix:path=\(path)"
    }

    /// Starts the private session bus that the bridge and its clients use.
    private func startBus() throws {
        busAddress = try spawnBus("bus", "the private session bus")
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
    }

    /// Starts a private bus that stands for the system bus (for stand-ins of system services) and puts
    /// its address in ``environment`` as `DBUS_SYSTEM_BUS_ADDRESS`; returns the address.
    @discardableResult
    public func startSystemBus() throws -> String {
        let address = try spawnBus("system_bus", "the private system bus")
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = address
        return address
    }

    private func startPulseAudio() throws {
        if busAddress == nil { try startBus() }
        let script = """
            load-module module-native-protocol-unix auth-anonymous=1 socket=\(runtimeDirectory)/pulse/native
            load-module module-null-sink sink_name=speaker sink_properties='device.description=Speaker device.form_factor=internal device.bus=pci'
            load-module module-null-sink sink_name=source_bed sink_properties='device.description=Bed'
            load-module module-remap-source master=source_bed.monitor source_name=mic source_properties='device.description=Microphone device.form_factor=internal device.bus=pci'
            load-module module-stream-restore restore_device=false
            set-default-sink speaker
            set-default-source mic
            \(extraScript.joined(separator: "\n"))

            """
        try FileManager.default.createDirectory(atPath: runtimeDirectory + "/pulse", withIntermediateDirectories: true)
        try script.write(toFile: root + "/default.pa", atomically: true, encoding: .utf8)
        // Without realtime scheduling: as root, PulseAudio's I/O threads would get SCHED_RR with the
        // 200 ms RLIMIT_RTTIME of Debian's daemon.conf, and on a loaded two-core machine a null sink
        // catching up after a burst of commands can run that long without blocking: the kernel then
        // kills the server with SIGKILL, silently (seen under the benchmark's 100-stream calls).
        // Without the CPU load limiter, which ends a server that used 70 % of a core for 10 s.
        pulseServer = try spawn("pulseaudio", [
            "-n", "-F", root + "/default.pa", "--exit-idle-time=-1", "--daemonize=no", "--use-pid-file=no",
            "--log-target=stderr", "--disallow-exit", "--realtime=no", "--no-cpu-limit",
        ], extraEnvironment: bluetoothEnvironment)
    }

    /// Starts one of PipeWire's programs: the system's, or those of the stack's private prefix with the
    /// prefix's libraries, plugins, modules and configuration.
    public func spawnPipeWire(_ program: String, _ arguments: [String] = []) throws -> TestProcess {
        // WirePlumber 0.5.11 and later say which MPRIS player they paused at an unplug, and when it
        // answered; its Bluetooth profile switching says what it decided (`waitForHeadsetCard`).
        let bluetooth = program == "wireplumber" ? bluetoothEnvironment.merging(["WIREPLUMBER_DEBUG": "s-linking.mpris:4,s-device:4"]) { $1 } : [:]
        guard let release = kind.privateRelease else { return try spawn(program, arguments, extraEnvironment: bluetooth) }
        let modern = try ModernPipeWire.installed(release)
        let command = modern.command(program)
        return try spawn(command.executable, command.leading + arguments,
                         extraEnvironment: modern.environment.merging(bluetooth) { $1 })
    }

    private func startPipeWire() throws {
        try startBus()
        pipeWireDaemon = try spawnPipeWire("pipewire")
        try waitUntil("pipewire's socket") { unixSocketAccepts(runtimeDirectory + "/pipewire-0") }
        wirePlumber = try spawnPipeWire("wireplumber")
        pulseServer = try spawnPipeWire("pipewire-pulse")
        try waitUntilAnswering()
        try setUpPipeWireDevices()
    }

    /// The speaker and microphone of a PipeWire server; they belong to pipewire-pulse and go with it.
    private func setUpPipeWireDevices() throws {
        // WirePlumber has set up the graph once a sink exists.
        try waitUntil("wireplumber's first sink") { !(try pactl(["list", "short", "sinks"]).isEmpty) }
        try addSink(name: "speaker", description: "Speaker", properties: ["device.form_factor": "internal", "device.bus": "pci"])
        try addSource(name: "mic", description: "Microphone", properties: ["device.form_factor": "internal", "device.bus": "pci"])
        // pipewire-pulse answers "Not supported" until WirePlumber has published its "default" metadata.
        // Should it never, the failure says what pipewire-pulse last answered and what it had.
        var refused = ""
        func devices(_ kind: String) -> String { (try? pactl(["list", "short", kind])) ?? "?" }
        try waitUntil("pipewire-pulse to accept a default sink and source (the last refusal: \(refused); WirePlumber "
                      + "running: \(wirePlumber?.isRunning == true), its last words: \(graphManagerOutput); "
                      + "sinks: \(devices("sinks")); sources: \(devices("sources")))") {
            do {
                _ = try pactl(["set-default-sink", "speaker"])
                _ = try pactl(["set-default-source", "mic"])
                return true
            } catch {
                refused = "\(error)"
                return false
            }
        }
        try waitUntil("the defaults") {
            let info = try pactl(["info"])
            return info.contains("Default Sink: speaker") && info.contains("Default Source: mic")
        }
    }

    private func waitUntilAnswering() throws {
        try waitUntil("\(kind) to answer on \(address)", timeout: .seconds(20)) {
            (try? TestProcess.run("pactl", ["info"], environment: environment).status) == 0
        }
    }

    /// Ends every process and removes the temporary folder. Safe to call more than once.
    public func stop() {
        watchdog?.cancel()
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        // Each process looked at once: one that ends meanwhile is either ended on its own or ended badly.
        let looked = first ? serverProcesses.map { (named: $0, running: $0.process.isRunning) } : []
        let running = looked.filter(\.running).map(\.named)
        watch?.record(looked.filter { !$0.running }.map { Self.ending($0.named) }, of: "\(kind) in \(root)", .onItsOwn)
        // A detached process is no child of ours: once it ends, its pid is free for any process, another
        // test's server as well, and the pids wrap within a run (32768 here). Only the very process
        // started is ended.
        for written in lock.withLock({ detached }) { if let pid = Self.liveProcess(written[...]) { kill(pid, SIGKILL) } }
        let all = lock.withLock { () -> [TestProcess] in
            defer { processes = []; clients = []; detached = [] }
            return (clients + processes).reversed()
        }
        for process in all { process.stop() }
        let endedBadly = running.compactMap { named -> String? in
            guard ![0, 128 + SIGTERM, 128 + SIGKILL].contains(named.process.waitUntilExit()) else { return nil }
            let lastLines = named.process.output.split(separator: "\n").suffix(12).joined(separator: "\n")
            return "\(Self.ending(named)); its last lines:\n\(lastLines)"
        }
        watch?.record(endedBadly, of: "\(kind) in \(root)", .badlyAtTeardown)
        try? FileManager.default.removeItem(atPath: root)
    }

    // MARK: Killing and restarting

    /// Kills the process that serves the PulseAudio protocol (`pulseaudio` or `pipewire-pulse`).
    public func killServer() {
        if let pulseServer { killOnPurpose(pulseServer) }
    }

    /// Kills one of the server's processes on purpose, so that its end is not taken for a crash.
    func killOnPurpose(_ process: TestProcess) {
        lock.withLock { _ = killedByTest.insert(process.pid) }
        process.kill9()
    }

    /// Starts the killed server again and waits until it answers.
    public func restartServer() throws {
        switch kind {
        case .pulseaudio:
            try? FileManager.default.removeItem(atPath: runtimeDirectory + "/pulse/native")
            try startPulseAudio()
        case .pipewire, .pipewire14, .pipewire16:
            pulseServer = try spawnPipeWire("pipewire-pulse")
            try waitUntilAnswering()
            try setUpPipeWireDevices()
        }
        try waitUntilAnswering()
    }

    // MARK: pactl

    /// Runs `pactl` against this server; throws with its output when it fails.
    @discardableResult
    public func pactl(_ arguments: [String]) throws -> String {
        let (status, output) = try TestProcess.run("pactl", arguments, environment: environment)
        guard status == 0 else { throw HarnessError("pactl \(arguments.joined(separator: " ")) failed: \(output)") }
        return output
    }

    /// Runs `pactl --format=json` and parses its answer.
    public func pactlJSON(_ arguments: [String]) throws -> Any {
        let output = try pactl(["--format=json"] + arguments)
        return try JSONSerialization.jsonObject(with: Data(output.utf8))
    }
}
