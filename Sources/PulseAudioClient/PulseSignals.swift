// SPDX-License-Identifier: Apache-2.0
import CPulse
import Glibc

/// UNIX signals delivered on a ``PulseLoop``'s thread (`pa_signal_init`, `pa_signal_new`), for the
/// life of the process.
public final class PulseSignals: @unchecked Sendable {
    private let handler: (Int32) -> Void
    private var events: [OpaquePointer] = []

    /// Delivers `signals` to `handler` on the loop thread. Create it before the loop runs, or on its thread.
    public init(loop: PulseLoop, signals: [Int32], _ handler: @escaping (Int32) -> Void) {
        self.handler = handler
        // Unblock them in this thread (and so in the loop thread it starts): a parent may have blocked them.
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        pa_signal_init(loop.api)
        for number in signals {
            if let event = pa_signal_new(number, { _, _, number, userdata in
                Unmanaged<PulseSignals>.fromOpaque(userdata!).takeUnretainedValue().handler(number)
            }, Unmanaged.passUnretained(self).toOpaque()) {
                events.append(event)
            }
        }
    }

    // The handlers stay for the life of the process: libpulse aborts when it cannot restore a
    // handler that the Swift runtime replaced in the meantime, so they are never freed.
}
