// SPDX-License-Identifier: Apache-2.0
import Foundation

/// An event-log record read back from the systemd journal, where the bridge writes each as an entry
/// with `AUDIOSESSION_EVENT` and one `AUDIOSESSION_<FIELD>` per field (strings as they are, other
/// values as JSON), as `journalctl -o json` gives it.
public enum JournalEntryRecord {
    /// The record fields by their journal names (the journal's names are upper case).
    static let fieldNames: [String: String] = Dictionary(uniqueKeysWithValues: [
        "session", "app", "kind", "policy", "why", "category", "mode", "options", "active", "ok", "error", "type", "reason",
        "interrupter", "interrupterSession", "shouldResume", "previousRoute", "currentRoute", "stream", "role", "device",
        "action", "causes", "level", "inCall", "sounding", "port", "portType", "muted", "server", "file", "message",
    ].map { ("AUDIOSESSION_" + $0.uppercased(), $0) })

    /// One journal entry as the record it was written from; nil for an entry that is no record.
    public static func record(_ entry: [String: Any]) -> [String: Any]? {
        guard let event = entry["AUDIOSESSION_EVENT"] as? String,
            let micros = (entry["__REALTIME_TIMESTAMP"] as? String).flatMap(Double.init) else { return nil }
        let time = Date(timeIntervalSince1970: micros / 1_000_000)
        var record: [String: Any] = ["event": event, "ts": time.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))]
        for (key, value) in entry {
            guard let name = fieldNames[key], let text = value as? String else { continue }
            let looksLikeJSON = text.first.map { "[{0123456789-".contains($0) } == true || ["true", "false", "null"].contains(text)
            let parsed = looksLikeJSON ? try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) : nil
            record[name] = parsed ?? text
        }
        return record
    }
}
