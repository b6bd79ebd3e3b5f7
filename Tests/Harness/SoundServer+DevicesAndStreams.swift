// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The simulated devices and the test streams of a private sound server.
extension SoundServer {
    // MARK: Devices

    static func propertyList(_ description: String, _ properties: [String: String]) -> String {
        let all = [("device.description", description)] + properties.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return "'" + all.map { "\($0.0)=\"\($0.1)\"" }.joined(separator: " ") + "'"
    }

    /// Adds a null sink with these properties; returns the module index to unload it with.
    @discardableResult
    public func addSink(name: String, description: String, properties: [String: String] = [:]) throws -> String {
        let module = try pactl(["load-module", "module-null-sink", "sink_name=\(name)",
                                "sink_properties=\(Self.propertyList(description, properties))"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if kind.hasWirePlumber05 { try configurePorts(ofSink: name) }
        return module
    }

    /// PipeWire 1.4 and later ignore volume and mute on a null sink whose ports were never configured (a real
    /// device's are), so a simulated device plays a few milliseconds of silence first, as a sound card
    /// that has run once. The short stream has no role, matches no policy, and is not a child of the
    /// test process (whose sessions would otherwise take it in by ancestry).
    private func configurePorts(ofSink name: String) throws {
        let silence = root + "/silence.raw"
        if !FileManager.default.fileExists(atPath: silence) {
            guard FileManager.default.createFile(atPath: silence, contents: Data(count: 48_000 * 4 / 100)) else {
                throw HarnessError("could not write \(silence)")
            }
        }
        let log = "\(logs)/device-check-\(name).log"
        let pid = try spawnDetached("pacat", [
            "--playback", "--raw", "--format=s16le", "--rate=48000", "--channels=2", "--device=\(name)",
            "--client-name=harness-device-check", silence,
        ], log: log)
        try waitUntil("the silence to play on \(name) (\(textSoFar(log)))") { kill(pid, 0) != 0 }
    }

    /// Adds a source with these properties; returns the module index to unload it with.
    @discardableResult
    public func addSource(name: String, description: String, properties: [String: String] = [:]) throws -> String {
        let list = Self.propertyList(description, properties)
        let arguments = switch kind {
        case .pulseaudio:
            ["load-module", "module-remap-source", "master=source_bed.monitor", "source_name=\(name)",
             "source_properties=\(list)"]
        case .pipewire, .pipewire14, .pipewire16:
            ["load-module", "module-null-sink", "sink_name=\(name)", "media.class=Audio/Source/Virtual",
             "sink_properties=\(list)"]
        }
        return try pactl(arguments).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Removes a device added by ``addSink(name:description:properties:)`` or ``addSource(name:description:properties:)``.
    public func unloadModule(_ index: String) throws {
        try pactl(["unload-module", index])
    }

    /// Adds a simulated device; returns the module indices to unload.
    @discardableResult
    public func plug(_ device: SimulatedDevice) throws -> [String] {
        var modules: [String] = []
        if let sink = device.sink { modules.append(try addSink(name: sink, description: device.description, properties: device.properties)) }
        if let source = device.source {
            modules.append(try addSource(name: source, description: device.description, properties: device.inputProperties))
        }
        return modules
    }

    // MARK: Streams

    /// Starts `pacat` playing silence (or the raw audio `file`, then ending) as the app `appName`, with
    /// extra stream properties.
    @discardableResult
    public func play(app appName: String, role: String? = nil, properties: [String: String] = [:],
                     device: String? = nil, record: Bool = false, file: String? = nil) throws -> TestProcess {
        var arguments = [record ? "--record" : "--playback", "--raw", "--format=s16le", "--rate=48000", "--channels=2",
                         "--client-name=\(appName)", "--stream-name=\(appName)-stream"]
        if let role { arguments.append("--property=media.role=\(role)") }
        for (key, value) in properties.sorted(by: { $0.key < $1.key }) { arguments.append("--property=\(key)=\(value)") }
        if let device { arguments.append("--device=\(device)") }
        arguments.append(record ? "/dev/null" : file ?? "/dev/zero")
        let process = try TestProcess("pacat", arguments, environment: environment, logDirectory: logs, name: "pacat-\(appName)")
        lock.withLock { clients.append(process) }
        recordChild(process.pid)
        return process
    }

    /// Starts `pacat` as an app that is not a descendant of the test process (it is re-parented away
    /// through a shell that exits), so that it joins no session owned by the test by process ancestry.
    /// Returns its pid; it is killed at teardown.
    @discardableResult
    public func playDetached(app appName: String, role: String? = nil) throws -> Int32 {
        var arguments = ["--playback", "--raw", "--format=s16le", "--rate=48000", "--channels=2", "--client-name=\(appName)"]
        if let role { arguments.append("--property=media.role=\(role)") }
        return try spawnDetached("pacat", arguments + ["/dev/zero"], log: "\(logs)/pacat-\(appName).log")
    }

    /// Starts a program that is not a descendant of the test process (see ``playDetached(app:role:)``),
    /// its output in `log`. Returns its pid; it is killed at teardown.
    @discardableResult
    public func spawnDetached(_ executable: String, _ arguments: [String], log: String) throws -> Int32 {
        let quoted = ([try TestProcess.which(executable)] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        let (_, output) = try TestProcess.run("/bin/sh", ["-c", "\(quoted) >'\(log)' 2>&1 & echo $!"], environment: environment)
        guard let pid = Int32(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError("could not start \(executable) detached: \(output)")
        }
        recordChild(pid)
        let identity = Self.identity(of: pid)
        lock.withLock { detached.append(identity) }
        return pid
    }

    /// The sink-inputs (or source-outputs) the server reports, as `pactl --format=json` gives them,
    /// without the ones modules own.
    public func streams(record: Bool = false) throws -> [[String: Any]] {
        let list = try pactlJSON(["list", record ? "source-outputs" : "sink-inputs"]) as? [[String: Any]] ?? []
        return list.filter { ($0["client"] as? String).map { !$0.isEmpty } ?? false }
    }

    /// The stream of a `pacat` started by ``play(app:role:properties:device:record:file:)``, once the server has it.
    public func stream(of app: String, record: Bool = false, timeout: Duration = .seconds(10)) throws -> [String: Any] {
        var found: [String: Any]?
        try waitUntil("the stream of \(app)", timeout: timeout) {
            found = try streams(record: record).first {
                (($0["properties"] as? [String: Any])?["application.name"] as? String) == app
            }
            return found != nil
        }
        return found!
    }
}
