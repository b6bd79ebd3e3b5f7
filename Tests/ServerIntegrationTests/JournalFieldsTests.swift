// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

@testable import AudioSessionDaemon

/// Journal priorities by kind and a stable MESSAGE_ID per event kind.
@Suite("Journal fields")
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
