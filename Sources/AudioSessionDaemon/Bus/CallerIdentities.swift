// SPDX-License-Identifier: Apache-2.0
import DBusKit

/// Who a caller on the bus is: its process, and the Flatpak app whose sandbox it runs in.
struct CallerIdentity: Equatable {
    /// The connection's process; nil when the connection was gone before the bus was asked.
    var processID: Int32?
    /// The Flatpak app id of the caller's sandbox; nil outside a sandbox.
    var sandboxAppID: String?
    /// The file name of the process's executable, read once with the rest instead of on every
    /// `CreateSession` (the bus libraries open their sockets close-on-exec: a connection ends with an
    /// `exec`).
    var executableName: String?

    /// Whether the caller may see what belongs to the app `appID`: an unsandboxed caller sees every
    /// app, a sandboxed one only its own.
    func maySee(app appID: String) -> Bool { sandboxAppID.map { $0 == appID } ?? true }
}

/// The identities of the bridge's callers, asked of the bus once per connection (a unique name never
/// changes hands) and forgotten when the connection goes. A caller's calls wait while its identity is
/// being asked for, and then run in the order they came.
final class CallerIdentities {
    private let connection: BusConnection
    private var known: [String: CallerIdentity] = [:]
    private var waiting: [String: [() -> Void]] = [:]

    init(connection: BusConnection) { self.connection = connection }

    /// Runs `body` once the identity of `sender` is known: at once when it is.
    func whenKnown(_ sender: String, _ body: @escaping () -> Void) {
        if known[sender] != nil || sender.isEmpty { return body() }
        let first = waiting[sender] == nil
        waiting[sender, default: []].append(body)
        guard first else { return }
        BusDriver.processID(of: sender, on: connection) { [weak self] pid in
            guard let self else { return }
            let pid = pid.map { Int32(bitPattern: $0) }
            let identity = CallerIdentity(processID: pid, sandboxAppID: pid.flatMap(SandboxIdentity.flatpakID(ofProcess:)),
                                          executableName: pid.flatMap(ProcessAncestry.executableName(of:)))
            // A connection that is gone is not remembered: nothing would ever forget it.
            if pid != nil { known[sender] = identity }
            for body in waiting.removeValue(forKey: sender) ?? [] { body() }
        }
    }

    /// The identity of a caller whose calls are being served: known, or one with no process for a
    /// caller that is gone.
    func identity(of sender: String) -> CallerIdentity { known[sender] ?? CallerIdentity() }

    /// Forgets a connection that closed.
    func forget(_ sender: String) { known[sender] = nil }
}
