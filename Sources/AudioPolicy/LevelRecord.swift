// SPDX-License-Identifier: Apache-2.0
import AudioSessionModel

/// What a report of one of a stream's levels (its volume, or its mute) is, told by order (DESIGN §3,
/// "Order, not timing"): which of the bridge's commands the report already reflects, not how long
/// ago anything happened.
enum LevelReport: Hashable, Sendable {
    /// The level the bridge asked for, or has: one of its commands landed, or nothing changed.
    case ours
    /// The level the server had before the bridge's commands still in flight: a report older than them.
    case stale
    /// Someone's level, set before the bridge's command in flight reached the server: it is the user's
    /// level from now on, and the bridge's effects stand on it.
    case usersBeforeOurCommand
    /// Someone's level, set after the bridge's last command: the user overrides the bridge's effects.
    case usersAfterOurCommand
    /// A command of the bridge's that was in flight when a level was taken for the user's override,
    /// reported after that level: the server carried it out after the level, so the level came first.
    /// The user's level stays the one taken, and the effects it lifted stand on it again (the user's
    /// before our command, found out by the later report).
    case ourCommandAfterUsers
}

/// One level of a stream as the bridge keeps it against the server's reports: what it asked for last,
/// what the server reported last, which of its commands are still to be reported, and which were in
/// flight when someone else's level was reported. Volume and mute are the same kind of record; the
/// user's own level lives beside them.
struct LevelRecord<Value: Hashable & Sendable>: Hashable, Sendable {
    /// What the bridge asked for last (the user's level when it has asked for nothing).
    var applied: Value
    /// What the server reported last.
    var confirmed: Value
    /// Levels the bridge asked for that the server has not reported back yet, oldest first.
    var expected: [Value] = []
    /// The bridge's commands that were still in flight when a level of someone else's was reported
    /// from a query sent after them. On PulseAudio such a level came after them (the server answers in
    /// order); on pipewire-pulse a query can be answered before an earlier command is carried out. One
    /// of them reported later shows that the server carried it out after that level: the level came
    /// first (``LevelReport/ourCommandAfterUsers``).
    var inFlightAtOverride: [Value] = []

    init(_ level: Value) {
        applied = level
        confirmed = level
    }

    /// Whether `level` is neither what the bridge has nor one it asked for and awaits: someone else's.
    func isUnasked(_ level: Value) -> Bool { level != applied && !expected.contains(level) }

    /// Whether a level the bridge asked for is still to be reported.
    var awaitsReport: Bool { !expected.isEmpty }

    /// The bridge sends `level`.
    mutating func send(_ level: Value) {
        applied = level
        expected.append(level)
    }

    /// The server refused the bridge's command for `level`: it is no longer awaited.
    mutating func refused(_ level: Value) {
        if let index = expected.firstIndex(of: level) { expected.remove(at: index) }
    }

    /// The server gave the level on its own (its memory of the app): the bridge starts again from it.
    mutating func restart(at level: Value) {
        applied = level
        confirmed = level
        expected = []
    }

    /// Takes a reported level and says what it is. `queryPrecedesCommand`: the query that returned it
    /// was sent before the bridge's last command to the stream (the adapter numbers its commands and
    /// queries on the connection; ``StreamInfo/levelsPrecedeLastCommand``). `answersMayPrecedeCommands`:
    /// the server may answer a query before it has carried out a command sent earlier
    /// (pipewire-pulse; ``StreamInfo/answersMayPrecedeCommands``); PulseAudio never does.
    ///
    /// - One of the bridge's awaited levels: ``LevelReport/ours``; the ones before it are passed.
    /// - One of the commands in flight at an earlier override: ``LevelReport/ourCommandAfterUsers``,
    ///   the record now at that command.
    /// - What the bridge has, or what the server had while commands are awaited: ``LevelReport/ours``
    ///   or ``LevelReport/stale``.
    /// - Anything else, from a query older than an awaited command: ``LevelReport/usersBeforeOurCommand``,
    ///   the commands stay awaited.
    /// - Anything else: ``LevelReport/usersAfterOurCommand``; the record is at the reported level, and
    ///   the commands in flight are kept in ``inFlightAtOverride`` where the server may still carry them
    ///   out (`answersMayPrecedeCommands`).
    mutating func absorb(_ reported: Value, queryPrecedesCommand: Bool, answersMayPrecedeCommands: Bool) -> LevelReport {
        defer { confirmed = reported }
        if let index = expected.firstIndex(of: reported) {
            expected.removeFirst(index + 1)
            return .ours
        }
        if let index = inFlightAtOverride.firstIndex(of: reported) {
            inFlightAtOverride.removeFirst(index + 1)
            applied = reported
            return .ourCommandAfterUsers
        }
        if reported == applied { return .ours }
        if reported == confirmed && !expected.isEmpty { return .stale }
        if queryPrecedesCommand && !expected.isEmpty { return .usersBeforeOurCommand }
        applied = reported
        inFlightAtOverride = answersMayPrecedeCommands ? expected : []
        expected = []
        return .usersAfterOurCommand
    }
}
