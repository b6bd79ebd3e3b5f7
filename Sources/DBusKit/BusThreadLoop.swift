// SPDX-License-Identifier: Apache-2.0
import Glibc
import Synchronization

/// A small `poll(2)` loop on its own thread, for clients that have no main loop of their own: a
/// ``BusConnection`` attached to it does all its work there, and other threads hand work over with
/// ``perform(_:)``.
public final class BusThreadLoop: BusEventLoop, @unchecked Sendable {
    final class Watch: BusLoopWatch {
        let fd: Int32
        var readable: Bool
        var writable: Bool
        var cancelled = false
        let callback: (Bool, Bool) -> Void
        init(fd: Int32, readable: Bool, writable: Bool, callback: @escaping (Bool, Bool) -> Void) {
            self.fd = fd
            self.readable = readable
            self.writable = writable
            self.callback = callback
        }
        func setEnabled(readable: Bool, writable: Bool) {
            self.readable = readable
            self.writable = writable
        }
        func cancel() { cancelled = true }
    }

    final class Timer: BusLoopTimer {
        var deadline: ContinuousClock.Instant?
        var cancelled = false
        let callback: () -> Void
        init(callback: @escaping () -> Void) { self.callback = callback }
        func arm(after delay: Duration) { deadline = .now + delay }
        func disarm() { deadline = nil }
        func cancel() {
            cancelled = true
            deadline = nil
        }
    }

    final class Deferred: BusLoopDeferred {
        var enabled = false
        var cancelled = false
        let callback: () -> Void
        init(callback: @escaping () -> Void) { self.callback = callback }
        func setEnabled(_ enabled: Bool) { self.enabled = enabled }
        func cancel() { cancelled = true }
    }

    private var watches: [Watch] = []
    private var timers: [Timer] = []
    private var deferreds: [Deferred] = []
    private let pending = Mutex<[@Sendable () -> Void]>([])
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let stopping = Atomic<Bool>(false)
    private var thread: pthread_t?
    private let threadID = Mutex<pthread_t?>(nil)

    public init() {
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    public func addWatch(fd: Int32, readable: Bool, writable: Bool, _ callback: @escaping (Bool, Bool) -> Void)
        -> any BusLoopWatch
    {
        let watch = Watch(fd: fd, readable: readable, writable: writable, callback: callback)
        watches.append(watch)
        return watch
    }

    public func addTimer(_ callback: @escaping () -> Void) -> any BusLoopTimer {
        let timer = Timer(callback: callback)
        timers.append(timer)
        return timer
    }

    public func addDeferred(_ callback: @escaping () -> Void) -> any BusLoopDeferred {
        let deferred = Deferred(callback: callback)
        deferreds.append(deferred)
        return deferred
    }

    /// Whether the caller runs on the loop's thread.
    public var isOnLoopThread: Bool {
        guard let id = threadID.withLock({ $0 }) else { return false }
        return pthread_equal(id, pthread_self()) != 0
    }

    /// Runs `work` on the loop thread, soon and in order; callable from any thread.
    public func perform(_ work: @escaping @Sendable () -> Void) {
        pending.withLock { $0.append(work) }
        var one: UInt8 = 1
        _ = write(wakeWrite, &one, 1)
    }

    /// Starts the loop's thread.
    public func start() {
        let retained = Unmanaged.passRetained(self)
        var thread = pthread_t()
        pthread_create(&thread, nil, { argument in
            let loop = Unmanaged<BusThreadLoop>.fromOpaque(argument!).takeRetainedValue()
            loop.threadID.withLock { $0 = pthread_self() }
            loop.run()
            return nil
        }, retained.toOpaque())
        self.thread = thread
    }

    /// Stops the loop and waits for its thread; not from the loop thread.
    public func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        perform {}
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    private func run() {
        while !stopping.load(ordering: .sequentiallyConsistent) {
            watches.removeAll { $0.cancelled }
            timers.removeAll { $0.cancelled }
            deferreds.removeAll { $0.cancelled }
            for deferred in deferreds where deferred.enabled { deferred.callback() }
            let now = ContinuousClock.now
            var timeout: Int32 = -1
            if deferreds.contains(where: { $0.enabled }) { timeout = 0 }
            if let next = timers.compactMap(\.deadline).min() {
                let milliseconds = max(0, Int32((next - now) / .milliseconds(1)))
                timeout = timeout < 0 ? milliseconds : min(timeout, milliseconds)
            }
            let active = watches.filter { $0.readable || $0.writable }
            var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            fds += active.map { pollfd(fd: $0.fd, events: Int16(($0.readable ? POLLIN : 0) | ($0.writable ? POLLOUT : 0)), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), timeout)
            if fds[0].revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 64)
                while read(wakeRead, &buffer, buffer.count) > 0 {}
            }
            for (watch, fd) in zip(active, fds.dropFirst()) where fd.revents != 0 && !watch.cancelled {
                watch.callback(fd.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0, fd.revents & Int16(POLLOUT) != 0)
            }
            let later = ContinuousClock.now
            for timer in timers where !timer.cancelled {
                if let deadline = timer.deadline, deadline <= later {
                    timer.deadline = nil
                    timer.callback()
                }
            }
            let work = pending.withLock { queue -> [@Sendable () -> Void] in
                defer { queue = [] }
                return queue
            }
            for item in work { item() }
        }
    }
}
