// SPDX-License-Identifier: Apache-2.0
import AudioSessionDaemon
import Foundation
import Testing

/// The event log's timestamps: RFC 3339 in UTC with milliseconds.
@Suite("Event-log records")
struct EventLogFormatTests {
    /// Expected values from Python's `datetime.fromtimestamp(t, timezone.utc).isoformat(timespec='milliseconds')`.
    @Test("RFC 3339 in UTC with milliseconds, leap day and year end included", arguments: [
        (1_795_000_000.123, "2026-11-18T11:06:40.123Z"),
        (951_782_400.007, "2000-02-29T00:00:00.007Z"),
        (1_704_067_199.999, "2023-12-31T23:59:59.999Z"),
        (0.5, "1970-01-01T00:00:00.500Z"),
    ])
    func timestamps(seconds: Double, expected: String) {
        #expect(LogRecord.rfc3339(Date(timeIntervalSince1970: seconds)) == expected)
    }
}

extension EventLogFormatTests {
    @Test("a record with quotes, backslashes and control characters reads back through a JSON parser unchanged")
    func escaping() throws {
        let text = "say \"hi\"\\ \u{1}\u{1f}\ttab\nline é"
        let record = LogRecord(timestamp: Date(timeIntervalSince1970: 0), event: "test", fields: [("text", .string(text))])
        let parsed = try JSONSerialization.jsonObject(with: Data(record.json.utf8)) as? [String: Any]
        #expect(parsed?["text"] as? String == text)
        #expect(parsed?["event"] as? String == "test")
    }
}
