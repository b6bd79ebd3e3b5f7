// SPDX-License-Identifier: Apache-2.0
import Foundation

/// PipeWire's own view of the graph, read with `pw-dump` (the system's, or the stack's private prefix's), and
/// WirePlumber restarted under a running server.
extension SoundServer {
    /// Every object `pw-dump` reports (PipeWire only).
    public func pipeWireObjects() throws -> [[String: Any]] {
        guard kind != .pulseaudio else { throw HarnessError("pw-dump needs a PipeWire server") }
        var command = (executable: "pw-dump", leading: [String]())
        var toolEnvironment = environment
        if let release = kind.privateRelease {
            let modern = try ModernPipeWire.installed(release)
            command = modern.command("pw-dump")
            toolEnvironment.merge(modern.environment) { $1 }
        }
        let (status, output) = try TestProcess.run(command.executable, command.leading, environment: toolEnvironment)
        guard status == 0, let objects = Self.graph(dumpedAs: output) else {
            throw HarnessError("pw-dump failed (exit status \(status)): \(output.prefix(300)) … \(output.suffix(500))")
        }
        return objects
    }

    /// The graph `pw-dump` printed: its first array, then each later one applied in order. When objects
    /// come or go while it reads the graph (a stream ending, a WirePlumber restarting), pw-dump prints
    /// what changed as further arrays before it exits: an object whole, or `{"id": N, "info": null}` for
    /// one removed. Nil when the output is not such arrays.
    static func graph(dumpedAs output: String) -> [[String: Any]]? {
        // Each array ends with a line that is "]" alone; the objects inside are indented.
        var arrays: [[[String: Any]]] = []
        var chunk = ""
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            chunk += line + "\n"
            guard line == "]" else { continue }
            guard let array = try? JSONSerialization.jsonObject(with: Data(chunk.utf8)) as? [[String: Any]] else { return nil }
            arrays.append(array)
            chunk = ""
        }
        guard let first = arrays.first, chunk.allSatisfy(\.isWhitespace) else { return nil }
        var order = first.compactMap { $0["id"] as? Int }
        var byID = Dictionary(first.compactMap { object in (object["id"] as? Int).map { ($0, object) } }) { $1 }
        for object in arrays.dropFirst().joined() {
            guard let id = object["id"] as? Int else { continue }
            if object["info"] is NSNull {
                byID[id] = nil
            } else {
                if !order.contains(id) { order.append(id) }
                byID[id] = object
            }
        }
        return order.compactMap { byID[$0] }
    }

    /// PipeWire's links (node to node), the "default" metadata (defaults, and each stream's target as
    /// pipewire-pulse and WirePlumber wrote it) and each device's own profile, for a failure message;
    /// empty on PulseAudio.
    public var graphSummary: String {
        guard kind != .pulseaudio else { return "" }
        guard let objects = try? pipeWireObjects() else { return "(pw-dump failed)" }
        var names: [Int: String] = [:]
        for object in objects where object["type"] as? String == "PipeWire:Interface:Node" {
            let props = (object["info"] as? [String: Any])?["props"] as? [String: Any]
            if let id = object["id"] as? Int { names[id] = props?["node.name"] as? String ?? "?" }
        }
        let name = { (id: Any?) in (id as? Int).map { "\($0) \(names[$0] ?? "?")" } ?? "?" }
        let links = objects.filter { $0["type"] as? String == "PipeWire:Interface:Link" }.compactMap { object -> String? in
            guard let info = object["info"] as? [String: Any] else { return nil }
            return "link \(name(info["output-node-id"])) → \(name(info["input-node-id"])) \(info["state"] as? String ?? "")"
        }
        let metadata = objects.filter {
            $0["type"] as? String == "PipeWire:Interface:Metadata"
                && ($0["props"] as? [String: Any])?["metadata.name"] as? String == "default"
        }.flatMap { ($0["metadata"] as? [[String: Any]]) ?? [] }.map { entry in
            "metadata \(name(entry["subject"])) \(entry["key"] as? String ?? "?") = \(entry["value"].map { "\($0)" } ?? "nil")"
        }
        return (Set(links).sorted() + metadata + Self.deviceProfileLines(objects)).joined(separator: "\n")
    }

    /// Each PipeWire device's name and the profile PipeWire itself has active (its `Profile` param),
    /// for a failure message that must tell PipeWire's view from pipewire-pulse's; empty on PulseAudio.
    public var deviceProfiles: String {
        guard kind != .pulseaudio else { return "" }
        guard let objects = try? pipeWireObjects() else { return "(pw-dump failed)" }
        return Self.deviceProfileLines(objects).joined(separator: "\n")
    }

    private static func deviceProfileLines(_ objects: [[String: Any]]) -> [String] {
        objects.filter { $0["type"] as? String == "PipeWire:Interface:Device" }.map { object in
            let info = object["info"] as? [String: Any]
            let name = (info?["props"] as? [String: Any])?["device.name"] as? String ?? "?"
            let params = info?["params"] as? [String: Any]
            let active = (params?["Profile"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
            return "device \(name): PipeWire's active profile \(active)"
        }
    }

    /// The `object.serial` of WirePlumber's "default" metadata once it names a default sink, or nil.
    /// Serials only grow, so a larger one is a metadata object published by a newer WirePlumber.
    func defaultMetadataSerial() throws -> Int? {
        try pipeWireObjects().compactMap { object -> Int? in
            guard object["type"] as? String == "PipeWire:Interface:Metadata",
                  let props = object["props"] as? [String: Any], props["metadata.name"] as? String == "default",
                  let entries = object["metadata"] as? [[String: Any]],
                  entries.contains(where: { $0["key"] as? String == "default.audio.sink" }) else { return nil }
            return props["object.serial"] as? Int
        }.max()
    }

    /// Kills WirePlumber alone (PipeWire only) and starts it again; the server stays up. Returns once the
    /// new WirePlumber has published its "default" metadata with a default sink, as the first one had:
    /// a stream that appears while WirePlumber is still loading may never be linked.
    public func restartWirePlumber() throws {
        guard kind != .pulseaudio, let old = wirePlumber else { throw HarnessError("\(kind) has no WirePlumber") }
        let before = try defaultMetadataSerial() ?? -1
        killOnPurpose(old)
        wirePlumber = try spawnPipeWire("wireplumber")
        try waitUntil("the new WirePlumber's default metadata", timeout: .seconds(20)) {
            try (defaultMetadataSerial() ?? -1) > before
        }
    }
}
