// SPDX-License-Identifier: Apache-2.0
import Foundation

/// PipeWire's own view of the graph, read with `pw-dump` (the system's, or the private 1.4 prefix's), and
/// WirePlumber restarted under a running server.
extension SoundServer {
    /// Every object `pw-dump` reports (PipeWire only).
    public func pipeWireObjects() throws -> [[String: Any]] {
        guard kind != .pulseaudio else { throw HarnessError("pw-dump needs a PipeWire server") }
        var executable = "pw-dump"
        var toolEnvironment = environment
        if kind == .pipewire14 {
            let modern = try ModernPipeWire.installed()
            executable = modern.executable("pw-dump")
            toolEnvironment.merge(modern.environment) { $1 }
        }
        let (status, output) = try TestProcess.run(executable, [], environment: toolEnvironment)
        guard status == 0, let objects = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]] else {
            throw HarnessError("pw-dump failed: \(output.prefix(500))")
        }
        return objects
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
        old.kill9()
        _ = old.waitUntilExit()
        wirePlumber = try spawnPipeWire("wireplumber")
        try waitUntil("the new WirePlumber's default metadata", timeout: .seconds(20)) {
            try (defaultMetadataSerial() ?? -1) > before
        }
    }
}
