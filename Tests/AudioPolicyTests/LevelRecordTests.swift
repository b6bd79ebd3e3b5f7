// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import Testing

/// How a reported level is told apart by order (DESIGN §3, "Order, not timing"): one record type for
/// volume and mute, as a table of what the bridge sent, what was reported and from which query.
@Suite("A stream's level against the server's reports")
struct LevelRecordTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        /// The level the stream starts at, what the bridge sends, and what the server reports, in order.
        var start: Int
        var sent: [Int]
        var reported: Int
        /// The report's query was sent before the bridge's last command to the stream.
        var queryPrecedesCommand = false
        var answersMayPrecedeCommands = false
        var outcome: LevelReport
        var applied: Int
        var expected: [Int]
        var inFlightAtOverride: [Int] = []
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "the bridge's command lands", start: 100, sent: [50], reported: 50, outcome: .ours, applied: 50, expected: []),
        Row(name: "the first of two commands lands; the second is still awaited", start: 100, sent: [70, 50], reported: 70,
            outcome: .ours, applied: 50, expected: [50]),
        Row(name: "a later command's report passes the earlier ones", start: 100, sent: [70, 50], reported: 50,
            outcome: .ours, applied: 50, expected: []),
        Row(name: "the level before the command, while it is awaited, is stale", start: 100, sent: [50], reported: 100,
            outcome: .stale, applied: 50, expected: [50]),
        Row(name: "nothing sent, the same level: ours", start: 100, sent: [], reported: 100, outcome: .ours, applied: 100, expected: []),
        Row(name: "a change from a query older than the command: the user's before it; the command stays awaited",
            start: 100, sent: [50], reported: 80, queryPrecedesCommand: true, outcome: .usersBeforeOurCommand,
            applied: 50, expected: [50]),
        Row(name: "a change with nothing in flight: the user's after the bridge's command", start: 100, sent: [], reported: 80,
            outcome: .usersAfterOurCommand, applied: 80, expected: []),
        Row(name: "PulseAudio: a change from a query after the command is after it; nothing stays in flight",
            start: 100, sent: [50], reported: 80, outcome: .usersAfterOurCommand, applied: 80, expected: []),
        Row(name: "pipewire-pulse: the same, but the command may still land; it is kept",
            start: 100, sent: [50], reported: 80, answersMayPrecedeCommands: true, outcome: .usersAfterOurCommand,
            applied: 80, expected: [], inFlightAtOverride: [50]),
    ]

    @Test("each report is told apart by the commands it reflects", arguments: rows)
    func tellsReportsApart(row: Row) {
        var record = LevelRecord(row.start)
        row.sent.forEach { record.send($0) }
        let outcome = record.absorb(row.reported, queryPrecedesCommand: row.queryPrecedesCommand,
                                    answersMayPrecedeCommands: row.answersMayPrecedeCommands)
        #expect(outcome == row.outcome)
        #expect(record.applied == row.applied)
        #expect(record.expected == row.expected)
        #expect(record.inFlightAtOverride == row.inFlightAtOverride)
        #expect(record.confirmed == row.reported)
    }

    @Test("a command in flight at an override, reported after it, shows the override's level came first")
    func commandAfterTheUsersLevel() {
        var record = LevelRecord(100)
        record.send(50)
        #expect(record.absorb(80, queryPrecedesCommand: false, answersMayPrecedeCommands: true) == .usersAfterOurCommand)
        #expect(record.absorb(50, queryPrecedesCommand: false, answersMayPrecedeCommands: true) == .ourCommandAfterUsers)
        #expect(record.applied == 50 && record.inFlightAtOverride.isEmpty)
        // The same level again is ours, not a second finding.
        #expect(record.absorb(50, queryPrecedesCommand: false, answersMayPrecedeCommands: true) == .ours)
    }

    @Test("volume and mute are the same record: a mute in flight and the user's unmute")
    func muteIsTheSameRecord() {
        var record = LevelRecord(false)
        record.send(true)
        #expect(record.absorb(false, queryPrecedesCommand: true, answersMayPrecedeCommands: false) == .stale)
        #expect(record.absorb(true, queryPrecedesCommand: false, answersMayPrecedeCommands: false) == .ours)
        #expect(record.absorb(false, queryPrecedesCommand: false, answersMayPrecedeCommands: false) == .usersAfterOurCommand)
    }

    @Test("a refused command is no longer awaited; the server's memory starts the record again")
    func refusedAndRestarted() {
        var record = LevelRecord(100)
        record.send(50)
        record.refused(50)
        #expect(!record.awaitsReport)
        record.send(40)
        record.restart(at: 0)
        #expect(record.applied == 0 && record.confirmed == 0 && !record.awaitsReport)
    }
}
