// SPDX-License-Identifier: Apache-2.0
/// The main loop a ``BusConnection`` attaches to: file-descriptor watches, timers and deferred
/// calls, all run on the loop's one thread. The daemon provides one on top of libpulse's loop so that
/// libdbus and libpulse share a thread.
public protocol BusEventLoop: AnyObject {
    /// Watches `fd`; `callback(readable, writable)` runs when it is ready.
    func addWatch(fd: Int32, readable: Bool, writable: Bool, _ callback: @escaping (Bool, Bool) -> Void) -> any BusLoopWatch
    /// A disarmed timer.
    func addTimer(_ callback: @escaping () -> Void) -> any BusLoopTimer
    /// A disabled deferred call: while enabled, it runs once per loop iteration.
    func addDeferred(_ callback: @escaping () -> Void) -> any BusLoopDeferred
}

/// A file-descriptor watch of a ``BusEventLoop``.
public protocol BusLoopWatch: AnyObject {
    func setEnabled(readable: Bool, writable: Bool)
    func cancel()
}

/// A timer of a ``BusEventLoop``.
public protocol BusLoopTimer: AnyObject {
    func arm(after delay: Duration)
    func disarm()
    func cancel()
}

/// A deferred call of a ``BusEventLoop``.
public protocol BusLoopDeferred: AnyObject {
    func setEnabled(_ enabled: Bool)
    func cancel()
}
