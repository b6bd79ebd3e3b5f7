// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A private `dbus-daemon --session` of its own, for tests that need a bus and no sound server
/// (an MPRIS player and the clients that drive it). Ended when released.
public final class PrivateBus: @unchecked Sendable {
    public let root: String
    /// `unix:path=…`, for ``environment`` and for libraries that take an address.
    public let address: String
    /// The environment of a client of this bus (`DBUS_SESSION_BUS_ADDRESS`, a private `XDG_RUNTIME_DIR`).
    public let environment: [String: String]
    private let daemon: TestProcess

    /// Starts the bus and waits until it accepts connections.
    public init() throws {
        root = NSTemporaryDirectory() + "audiosession-bus-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root + "/run", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let socket = root + "/run/bus"
        address = "unix:path=\(socket)"
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        environment["XDG_RUNTIME_DIR"] = root + "/run"
        self.environment = environment
        daemon = try TestProcess("dbus-daemon", ["--session", "--nofork", "--nopidfile", "--address=\(address)"],
                                 environment: environment, logDirectory: root)
        try waitUntil("the private session bus") { unixSocketAccepts(socket) }
    }

    deinit {
        daemon.stop()
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Runs a client of this bus to its end: its exit status and output.
    @discardableResult
    public func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        try TestProcess.run(executable, arguments, environment: environment)
    }
}
