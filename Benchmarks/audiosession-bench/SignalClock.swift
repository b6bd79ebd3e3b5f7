// SPDX-License-Identifier: Apache-2.0
import DBusKit
import Foundation

/// A bus connection on a thread of its own that stamps each signal of the bridge the moment it arrives.
final class SignalClock: @unchecked Sendable {
    private let loop = BusThreadLoop()
    private let connection: BusConnection
    private let lock = NSLock()
    private var arrivals: [(member: String, path: String, first: String, at: ContinuousClock.Instant)] = []

    init(address: String) throws {
        connection = try BusConnection(.address(address))
        try connection.addMatch("type='signal',sender='io.github.audiosession.Bridge1'")
        connection.onMessage = { [unowned self] message in
            let now = ContinuousClock.now
            guard message.kind == .signal else { return false }
            let first = message.member == "RouteChange" ? message.arguments.first?.stringValue ?? "" : ""
            lock.withLock { arrivals.append((message.member ?? "", message.path ?? "", first, now)) }
            return true
        }
        connection.attach(to: loop)
        loop.start()
    }

    /// Closes the connection and ends its thread.
    func close() {
        let done = DispatchSemaphore(value: 0)
        loop.perform { [self] in
            connection.close()
            done.signal()
        }
        done.wait()
        loop.stop()
    }

    /// Waits until a signal named `member` for `path` arrives after `after`, and returns when it arrived.
    func arrival(of member: String, path: String, after: ContinuousClock.Instant, timeout: Duration = .seconds(10)) throws
        -> ContinuousClock.Instant
    {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let found = lock.withLock({ arrivals.first { $0.member == member && $0.path == path && $0.at >= after } }) {
                return found.at
            }
            usleep(200)
        }
        let seen = lock.withLock { arrivals.filter { $0.member == member }.map { "\($0.member) \($0.first) \($0.at)" } }
        throw BenchError("no \(member) signal for \(path) (signals so far: \(seen))")
    }
}
