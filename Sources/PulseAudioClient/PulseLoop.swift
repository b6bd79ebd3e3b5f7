// SPDX-License-Identifier: Apache-2.0
import CPulse
import Glibc
import Synchronization

/// One thread running a `pa_mainloop`. Everything that touches libpulse (and libdbus, attached to
/// the same loop) runs on this thread; other threads hand work over with ``perform(_:)``.
public final class PulseLoop: @unchecked Sendable {
    let mainloop: OpaquePointer
    /// The loop's `pa_mainloop_api`, for contexts and for other libraries' watches and timeouts.
    public let api: UnsafeMutablePointer<pa_mainloop_api>
    private let wakeFD: Int32
    private let wakeWriteFD: Int32
    private var wakeEvent: OpaquePointer?
    private let pending = Mutex<[@Sendable () -> Void]>([])
    private let loopThread = Mutex<pthread_t?>(nil)
    private var started = false

    /// Creates the loop (`pa_mainloop_new`) and its wake-up descriptor; ``start()`` runs it.
    public init() throws(PulseError) {
        guard let mainloop = pa_mainloop_new() else { throw PulseError(code: Int32(PA_ERR_INTERNAL.rawValue), operation: "pa_mainloop_new") }
        self.mainloop = mainloop
        api = pa_mainloop_get_api(mainloop)
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw PulseError(code: Int32(PA_ERR_INTERNAL.rawValue), operation: "pipe") }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakeFD = fds[0]
        wakeWriteFD = fds[1]
        wakeEvent = cpulse_io_new(api, wakeFD, PA_IO_EVENT_INPUT, { _, _, _, _, userdata in
            Unmanaged<PulseLoop>.fromOpaque(userdata!).takeUnretainedValue().drainPending()
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        if let wakeEvent { cpulse_io_free(api, wakeEvent) }
        pa_mainloop_free(mainloop)
        close(wakeFD)
        close(wakeWriteFD)
    }

    /// Runs the loop on a new thread (`pa_mainloop_run`).
    public func start() {
        precondition(!started, "a PulseLoop runs once")
        started = true
        let retained = Unmanaged.passRetained(self)
        var thread = pthread_t()
        pthread_create(&thread, nil, { argument in
            let loop = Unmanaged<PulseLoop>.fromOpaque(argument!).takeRetainedValue()
            loop.loopThread.withLock { $0 = pthread_self() }
            var result: Int32 = 0
            pa_mainloop_run(loop.mainloop, &result)
            return nil
        }, retained.toOpaque())
        loopThread.withLock { $0 = $0 ?? thread }
    }

    /// Stops the loop (`pa_mainloop_quit`) and waits for its thread to end. Call it from another thread.
    public func stop() {
        guard let thread = loopThread.withLock({ $0 }) else { return }
        precondition(!isOnLoopThread, "stop() waits for the loop thread and cannot run on it")
        perform { [self] in pa_mainloop_quit(self.mainloop, 0) }
        pthread_join(thread, nil)
        loopThread.withLock { $0 = nil }
    }

    /// Whether the caller runs on the loop's thread.
    public var isOnLoopThread: Bool {
        guard let thread = loopThread.withLock({ $0 }) else { return false }
        return pthread_equal(thread, pthread_self()) != 0
    }

    /// Runs `work` on the loop thread, soon and in order; callable from any thread.
    public func perform(_ work: @escaping @Sendable () -> Void) {
        pending.withLock { $0.append(work) }
        var one: UInt8 = 1
        _ = write(wakeWriteFD, &one, 1)
    }

    /// Runs `body` on the loop thread and returns its result to an async caller.
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            perform { continuation.resume(with: Result { try body() }) }
        }
    }

    private func drainPending() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeFD, &buffer, buffer.count) > 0 {}
        while true {
            let batch = pending.withLock { queue -> [@Sendable () -> Void] in
                defer { queue = [] }
                return queue
            }
            if batch.isEmpty { return }
            for work in batch { work() }
        }
    }
}

/// A one-shot or re-armable timer on a ``PulseLoop`` (`time_new`, `time_restart`, `time_free`).
/// Use it on the loop thread only.
public final class PulseTimer: @unchecked Sendable {
    private let loop: PulseLoop
    private var event: OpaquePointer?
    private let fire: () -> Void

    /// A timer that calls `fire` on the loop thread; armed with ``arm(after:)``.
    public init(loop: PulseLoop, _ fire: @escaping () -> Void) {
        self.loop = loop
        self.fire = fire
        event = cpulse_time_new_after(loop.api, 0, 0, { _, _, _, userdata in
            let timer = Unmanaged<PulseTimer>.fromOpaque(userdata!).takeUnretainedValue()
            timer.isArmed = false
            timer.fire()
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Whether it is armed and has not fired yet.
    public private(set) var isArmed = false

    /// Arms it unless it is armed already: a burst of requests is served once, and none is put off.
    public func armIfIdle(after delay: Duration) {
        if !isArmed { arm(after: delay) }
    }

    deinit { cancelForever() }

    /// Fires once after `delay` (replacing any earlier arming).
    public func arm(after delay: Duration) {
        guard let event else { return }
        cpulse_time_restart_after(loop.api, event, pa_usec_t(max(0, delay.microseconds)), 1)
        isArmed = true
    }

    /// Disarms the timer; it can be armed again.
    public func disarm() {
        guard let event else { return }
        cpulse_time_restart_after(loop.api, event, 0, 0)
        isArmed = false
    }

    /// Frees the event; the timer never fires again.
    public func cancelForever() {
        if let event { cpulse_time_free(loop.api, event) }
        event = nil
    }
}

extension Duration {
    /// Whole microseconds.
    var microseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}

/// A file-descriptor watch on a ``PulseLoop`` (`io_new`, `io_enable`, `io_free`). Use it on the loop thread.
public final class PulseIOWatch: @unchecked Sendable {
    private let loop: PulseLoop
    private var event: OpaquePointer?
    private let ready: (_ readable: Bool, _ writable: Bool) -> Void

    /// Watches `fd` for readability and/or writability.
    public init(loop: PulseLoop, fd: Int32, readable: Bool, writable: Bool,
                _ ready: @escaping (_ readable: Bool, _ writable: Bool) -> Void) {
        self.loop = loop
        self.ready = ready
        event = cpulse_io_new(loop.api, fd, Self.flags(readable, writable), { _, _, _, flags, userdata in
            let this = Unmanaged<PulseIOWatch>.fromOpaque(userdata!).takeUnretainedValue()
            this.ready(flags.rawValue & (PA_IO_EVENT_INPUT.rawValue | PA_IO_EVENT_HANGUP.rawValue | PA_IO_EVENT_ERROR.rawValue) != 0,
                       flags.rawValue & PA_IO_EVENT_OUTPUT.rawValue != 0)
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { cancel() }

    static func flags(_ readable: Bool, _ writable: Bool) -> pa_io_event_flags_t {
        pa_io_event_flags_t((readable ? PA_IO_EVENT_INPUT.rawValue : 0) | (writable ? PA_IO_EVENT_OUTPUT.rawValue : 0))
    }

    /// Changes what is watched.
    public func setEnabled(readable: Bool, writable: Bool) {
        guard let event else { return }
        cpulse_io_enable(loop.api, event, Self.flags(readable, writable))
    }

    /// Stops watching for good.
    public func cancel() {
        if let event { cpulse_io_free(loop.api, event) }
        event = nil
    }
}

/// A deferred call on a ``PulseLoop`` (`defer_new`, `defer_enable`, `defer_free`): while enabled it
/// runs once per loop iteration. Use it on the loop thread.
public final class PulseDeferred: @unchecked Sendable {
    private let loop: PulseLoop
    private var event: OpaquePointer?
    private let run: () -> Void

    /// A disabled deferred call.
    public init(loop: PulseLoop, _ run: @escaping () -> Void) {
        self.loop = loop
        self.run = run
        event = cpulse_defer_new(loop.api, { _, _, userdata in
            Unmanaged<PulseDeferred>.fromOpaque(userdata!).takeUnretainedValue().run()
        }, Unmanaged.passUnretained(self).toOpaque())
        if let event { cpulse_defer_enable(loop.api, event, 0) }
    }

    deinit { cancel() }

    public func setEnabled(_ enabled: Bool) {
        guard let event else { return }
        cpulse_defer_enable(loop.api, event, enabled ? 1 : 0)
    }

    public func cancel() {
        if let event { cpulse_defer_free(loop.api, event) }
        event = nil
    }
}
