// SPDX-License-Identifier: Apache-2.0
import AudioPolicy

/// The engine's actions behind the level commands in flight on one connection, by the numbered place
/// each was sent in (``PulseContext/send(_:)``): made once per connection, so that sending a mute or a
/// volume allocates nothing, and a refusal is still reported as the action that failed.
final class CommandLedger {
    private var actions: ContiguousArray<PolicyAction?>
    /// The level commands sent on the connection that the server has not answered yet, in a numbered
    /// place or with a completion of their own.
    private(set) var unanswered = 0

    init(capacity: Int) { actions = ContiguousArray(repeating: nil, count: capacity) }

    /// Notes the action sent in place `number`.
    func note(_ action: PolicyAction, at number: Int) { actions[number] = action }

    /// A level command left; its answer is to come (``answered()``).
    func sent() { unanswered += 1 }

    /// A level command's answer came.
    func answered() { unanswered -= 1 }

    /// The action of place `number`, whose answer came; the place no longer holds it.
    func take(_ number: Int) -> PolicyAction? {
        let action = actions[number]
        actions[number] = nil
        return action
    }
}
