// SPDX-License-Identifier: Apache-2.0
import Foundation

/// What one test case learns of the sound servers it started: which of their processes ended on their
/// own (a crash, an exit) before the case stopped them.
///
/// A server process that crashes can take with it just what a test waits for (a device, a stream), and
/// the test then passes over the crash. Each server test case runs under a watch (the `threadOfItsOwn`
/// trait installs one as ``current``); a ``SoundServer`` started under it reports to it when it is
/// stopped, and the trait fails the case for every process named here. A process the test ended itself
/// (``SoundServer/killServer()``, ``SoundServer/restartWirePlumber()``) is not named.
public final class ServerProcessWatch: @unchecked Sendable {
    /// The watch of the test case running now, if it has one.
    @TaskLocal public static var current: ServerProcessWatch?

    private let lock = NSLock()
    private var ended: [String] = []
    private var endedBadly: [String] = []

    public init() {}

    /// The server processes that ended on their own, each with its server and how it ended.
    public var endedOnTheirOwn: [String] { lock.withLock { ended } }

    /// The server processes that, told to end at teardown (SIGTERM), ended otherwise than by exiting or
    /// by that signal: a crash on their way out, which the test itself never sees.
    public var endedBadlyAtTeardown: [String] { lock.withLock { endedBadly } }

    /// When a server process ended otherwise than the test told it to.
    enum Ending {
        /// Before the test stopped its server: a crash or an exit of its own.
        case onItsOwn
        /// When teardown told it to end, by a signal other than that one or by a failing exit.
        case badlyAtTeardown
    }

    /// Notes that `processes` of the server `server` ended as `ending` says.
    func record(_ processes: [String], of server: String, _ ending: Ending) {
        let named = processes.map { "\(server): \($0)" }
        lock.withLock {
            switch ending {
            case .onItsOwn: ended += named
            case .badlyAtTeardown: endedBadly += named
            }
        }
    }
}
