// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// The event-log records of the last hour (at most ``capacity``), kept in memory for `EventHistory`,
/// `audiosessionctl timeline` and `monitor --since`, oldest first.
struct EventHistory {
    /// How many records are kept at most.
    static let capacity = 20_000
    /// How old a kept record may be.
    static let maximumAge: TimeInterval = 3600

    private var times: [Date] = []
    private var records: [String] = []
    /// The index of the oldest kept record (older ones are dropped in batches, not one by one).
    private var start = 0

    /// How many records are kept.
    var count: Int { records.count - start }

    mutating func append(_ json: String, at time: Date) {
        times.append(time)
        records.append(json)
        while count > Self.capacity || (count > 0 && time.timeIntervalSince(times[start]) > Self.maximumAge) { start += 1 }
        if start > 1024 && start * 2 > records.count {
            times.removeFirst(start)
            records.removeFirst(start)
            start = 0
        }
    }

    /// The kept records from `since` to `until` (both included; nil: no bound), oldest first.
    func records(since: Date?, until: Date?) -> [String] {
        var result: [String] = []
        for index in start..<records.count {
            if let since, times[index] < since { continue }
            if let until, times[index] > until { break }
            result.append(records[index])
        }
        return result
    }
}
