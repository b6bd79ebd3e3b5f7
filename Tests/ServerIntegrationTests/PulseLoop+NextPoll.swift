// SPDX-License-Identifier: Apache-2.0
import PulseAudioClient

extension PulseLoop {
    /// Returns once the loop has polled its descriptors after this call and handed out what that poll
    /// found ready. `perform` alone cannot say so: work queued while the loop runs queued work is run in
    /// the same turn, with no poll in between. A `pa_mainloop` turn polls, then fires due timers, then
    /// hands out ready descriptors; so a timer armed now fires in a turn whose poll came after this
    /// call, and armed again from there, it fires in a later turn, after those descriptors were handed out.
    func afterNextPoll() async throws {
        final class Firings: @unchecked Sendable {
            var timer: PulseTimer?
            var firedOnce = false
        }
        let firings = Firings()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            perform {
                firings.timer = PulseTimer(loop: self) {
                    if firings.firedOnce { return continuation.resume() }
                    firings.firedOnce = true
                    firings.timer?.arm(after: .zero)
                }
                firings.timer?.arm(after: .zero)
            }
        }
        try await run { firings.timer = nil }
    }
}
