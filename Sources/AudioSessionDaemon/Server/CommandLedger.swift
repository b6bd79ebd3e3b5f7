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

    /// Whether a level command left since the last marker (``markerSent()``).
    private(set) var commandsSinceMarker = false
    /// Markers sent on the connection whose announcement has not been heard (``ServerAdapter/markLevelCommands()``).
    private(set) var markersUnannounced = 0
    /// Of those, the ones the server answered: the next announcement of the connection's own client is theirs.
    private var markersAnswered = 0

    /// Whether the server has yet to answer a level command, or to announce the changes of those it answered.
    var awaited: Bool { unanswered > 0 || markersUnannounced > 0 }

    /// A level command left; its answer is to come (``answered()``).
    func sent() {
        unanswered += 1
        commandsSinceMarker = true
    }

    /// A level command's answer came.
    func answered() { unanswered -= 1 }

    /// A marker left behind the level commands sent since the last one.
    func markerSent() {
        markersUnannounced += 1
        commandsSinceMarker = false
    }

    /// A marker's answer came: the server has carried it out, and announces it with its next changes.
    func markerAnswered() { markersAnswered += 1 }

    /// A marker was refused: no announcement of it is to come.
    func markerRefused() { markersUnannounced -= 1 }

    /// The connection's own client was announced as changed: the server announced every marker it had
    /// answered before, and every change made before those markers.
    func ownClientAnnounced() {
        markersUnannounced -= markersAnswered
        markersAnswered = 0
    }

    /// The action of place `number`, whose answer came; the place no longer holds it.
    func take(_ number: Int) -> PolicyAction? {
        let action = actions[number]
        actions[number] = nil
        return action
    }
}
