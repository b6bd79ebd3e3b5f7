// SPDX-License-Identifier: Apache-2.0
import DBusKit
import Foundation

/// A private sound server and bus with `audiosessiond` running on them: what end-to-end tests and the
/// soak runs start from.
open class BridgedServer: @unchecked Sendable {
    public let server: SoundServer
    public let daemon: BridgeDaemon

    /// A server of `kind` (ended by its watchdog after `lifetime`) and a bridge on it.
    public convenience init(_ kind: SoundServerKind, daemonArguments: [String] = [], lifetime: Duration = .seconds(300)) throws {
        try self.init(server: SoundServer(kind, lifetime: lifetime), daemonArguments: daemonArguments)
    }

    /// A bridge on a server the caller started (which it then owns and stops).
    public init(server: SoundServer, daemonArguments: [String] = [],
                executable: String = BridgeDaemon.testBuild) throws {
        self.server = server
        do {
            daemon = try BridgeDaemon(server: server, arguments: daemonArguments, executable: executable)
        } catch {
            server.stop()
            throw error
        }
    }

    public func stop() {
        daemon.terminate()
        server.stop()
    }

    /// Polls `condition` as the free ``waitUntil(_:timeout:_:)`` does; a timeout's error also carries
    /// the bridge's last event-log records and the streams as the server reports them, so a failure
    /// seen once under load says what the bridge decided and where the streams were.
    public func waitUntil(_ what: @autoclosure () -> String, timeout: Duration = .seconds(10),
                          _ condition: () throws -> Bool) throws {
        do {
            try AudioTestHarness.waitUntil(what(), timeout: timeout, condition)
        } catch let error as HarnessError {
            throw HarnessError("\(error.description)\n\(diagnosis)")
        }
    }

    /// The server's streams and sources, and the bridge's state and last records, for a failure message.
    public var diagnosis: String {
        let streams = ["sink-inputs", "source-outputs", "sources"]
            .map { (try? server.pactl(["list", "short", $0])) ?? "(pactl list \($0) failed)" }.joined(separator: "\n")
        let graph = server.kind == .pulseaudio ? "" : "\nPipeWire's graph:\n\(server.graphSummary)"
        let wirePlumber = server.graphManagerOutput.isEmpty ? "" : "\nWirePlumber's last lines:\n\(server.graphManagerOutput)"
        let headset = server.hasBluetoothStandIn ? "\n\(server.headsetDiagnosis)" : ""
        return "the server's streams and sources:\n\(streams)\n\(daemon.diagnosis(lastRecords: 30))\(graph)\(wirePlumber)\(headset)"
    }

    /// A new app connection to the bridge.
    public func client() throws -> BusClient { try BusClient(address: server.busAddress!) }

    /// An explicit session, configured and (optionally) active.
    public func session(_ client: BusClient, _ app: String, _ category: String, mode: String = "default",
                        options: [String] = [], active: Bool = true) throws -> (path: String, token: String) {
        let session = try client.createSession(app)
        try client.setCategory(session.path, category, mode: mode, options: options)
        if active { try client.setActive(session.path, true) }
        return session
    }
}
