// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

@testable import AudioSessionDaemon
import ServerTestTraits

/// Journal priorities by kind and a stable MESSAGE_ID per event kind.
@Suite("Journal fields", .threadOfItsOwn)
struct JournalFieldsTests {
    static let table: [(event: String, fields: [(String, JSONValue)], priority: Int)] = [
        ("policy.error", [("file", .string("a.toml"))], 3),
        ("permission.error", [], 3),
        ("session.active", [("active", .bool(true)), ("ok", .bool(false))], 3),
        ("server.lost", [], 4),
        ("session.active", [("active", .bool(true)), ("ok", .bool(true))], 6),
        ("interruption", [("type", .string("began"))], 6),
        ("action", [("action", .string("mute"))], 6),
        ("server.reset", [], 6),
        ("stream.added", [], 7),
        ("device.removed", [], 7),
    ]

    @Test(arguments: table.indices)
    func priorityByKind(_ row: Int) {
        let (event, fields, priority) = Self.table[row]
        #expect(JournalFields.priority(LogRecord(timestamp: Date(), event: event, fields: fields)) == priority, "\(event)")
    }

    @Test func messageIDsAreStableAndDistinct() {
        let events = ["session.created", "session.released", "interruption", "route.change", "server.lost", "server.reset",
                      "stream.added", "stream.removed", "policy.error", "action"]
        let ids = events.map(JournalFields.messageID)
        #expect(Set(ids).count == events.count)
        #expect(ids.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
        #expect(JournalFields.messageID("interruption") == JournalFields.messageID("interruption"))
    }
}

extension JournalFieldsTests {
    @Test("a command the server refused is logged as action.error, with what it was for, at the error priority")
    func refusedCommand() {
        let record = EventLogRecords.record(.commandFailed("move", subject: "sink-input/7 to sink/2", error: "No such entity"),
                                            at: Date(timeIntervalSince1970: 0))
        #expect(record.event == "action.error")
        #expect(record.fields.map(\.0) == ["action", "subject", "error"])
        #expect(record.fields.map(\.1) == [.string("move"), .string("sink-input/7 to sink/2"), .string("No such entity")])
        #expect(JournalFields.priority(record) == 3)
    }
}
