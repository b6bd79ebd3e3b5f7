// SPDX-License-Identifier: Apache-2.0
import PulseAudioClient

/// Orders the adapter's queries and the server's removals, so that a late answer never brings back an
/// object removed after the query was sent. Every query and removal takes the next serial; an answer is
/// stale when its object was removed at a later serial than its query's.
struct QueryOrder {
    private var serial: UInt64 = 0
    private var removedAt: [PulseFacility: [UInt32: UInt64]] = [:]
    /// The serials of the queries not answered yet, oldest first. A removal older than all of them can
    /// no longer make an answer stale, so it is forgotten (else every object ever removed stays here).
    private var queriesInFlight: [UInt64] = []

    /// How many removals may be remembered while queries are out before the older ones are pruned.
    static let removalsKeptBeforePruning = 512

    private mutating func nextSerial() -> UInt64 {
        serial += 1
        return serial
    }

    /// A serial for a query about to be sent, remembered until its answer is in.
    mutating func querySent() -> UInt64 {
        let asked = nextSerial()
        queriesInFlight.append(asked)
        return asked
    }

    /// The query's answer was taken in: removals older than every query still out are forgotten.
    mutating func queryAnswered(_ asked: UInt64) {
        if let position = queriesInFlight.firstIndex(of: asked) { queriesInFlight.remove(at: position) }
        guard let oldest = queriesInFlight.first else { return removedAt.removeAll(keepingCapacity: true) }
        guard removedAt.values.reduce(0, { $0 + $1.count }) > Self.removalsKeptBeforePruning else { return }
        for facility in removedAt.keys { removedAt[facility] = removedAt[facility]?.filter { $0.value > oldest } }
    }

    /// The server removed an object.
    mutating func removed(_ facility: PulseFacility, _ index: UInt32) {
        removedAt[facility, default: [:]][index] = nextSerial()
    }

    /// Whether the object was removed after the query that returned it was sent.
    func isStale(_ facility: PulseFacility, _ index: UInt32, askedAt: UInt64) -> Bool {
        (removedAt[facility]?[index] ?? 0) > askedAt
    }
}
