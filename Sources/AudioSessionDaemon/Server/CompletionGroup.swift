// SPDX-License-Identifier: Apache-2.0
import PulseAudioClient

/// Calls `done` once every tracked query has answered (with whether any failed).
final class CompletionGroup {
    private var outstanding = 0
    private var sealed = false
    private var failed = false
    private let done: (Bool) -> Void

    init(_ done: @escaping (Bool) -> Void) { self.done = done }

    /// Wraps a query's completion so the group waits for it.
    func track<T>(_ body: @escaping (T) -> Void) -> (Result<T, PulseError>) -> Void {
        outstanding += 1
        return { [self] result in
            switch result {
            case .success(let value): body(value)
            case .failure: failed = true
            }
            outstanding -= 1
            finishIfDone()
        }
    }

    /// No more queries will be tracked.
    func seal() {
        sealed = true
        finishIfDone()
    }

    private func finishIfDone() {
        guard sealed, outstanding == 0 else { return }
        sealed = false
        done(failed)
    }
}
