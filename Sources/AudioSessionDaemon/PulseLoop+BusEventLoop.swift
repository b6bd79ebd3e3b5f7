// SPDX-License-Identifier: Apache-2.0
import DBusKit
import PulseAudioClient

/// libdbus runs on libpulse's loop: one thread, no locks, events in order.
extension PulseLoop: BusEventLoop {
    public func addWatch(fd: Int32, readable: Bool, writable: Bool, _ callback: @escaping (Bool, Bool) -> Void)
        -> any BusLoopWatch
    {
        PulseIOWatch(loop: self, fd: fd, readable: readable, writable: writable, callback)
    }

    public func addTimer(_ callback: @escaping () -> Void) -> any BusLoopTimer {
        PulseTimer(loop: self, callback)
    }

    public func addDeferred(_ callback: @escaping () -> Void) -> any BusLoopDeferred {
        PulseDeferred(loop: self, callback)
    }
}

extension PulseIOWatch: BusLoopWatch {}
extension PulseDeferred: BusLoopDeferred {}
extension PulseTimer: BusLoopTimer {
    public func cancel() { cancelForever() }
}
