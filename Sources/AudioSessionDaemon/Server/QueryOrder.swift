// SPDX-License-Identifier: Apache-2.0
import PulseAudioClient

/// Orders the adapter's queries, its commands to streams and the server's removals on the one
/// connection, which the server answers in order. A late answer never brings back an object removed
/// after the query was sent, and an answer older than a command to its stream says so. Every query,
/// command and removal takes the next serial; an answer is stale when its object was removed at a
/// later serial than its query's.
struct QueryOrder {
    private var serial: UInt64 = 0
    /// An object of the server's. One key of both parts, so that a table emptied with its capacity kept
    /// takes the next entries without allocating (the path of an interruption's first moves).
    private struct Object: Hashable {
        var facility: PulseFacility
        var index: UInt32
    }
    private var removedAt: [Object: UInt64] = [:]
    /// The serial of the last command sent to each stream while queries were out.
    private var commandedAt: [Object: UInt64] = [:]
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
        guard let oldest = queriesInFlight.first else {
            removedAt.removeAll(keepingCapacity: true)
            commandedAt.removeAll(keepingCapacity: true)
            return
        }
        guard removedAt.count > Self.removalsKeptBeforePruning else { return }
        removedAt = removedAt.filter { $0.value > oldest }
    }

    /// The server removed an object.
    mutating func removed(_ facility: PulseFacility, _ index: UInt32) {
        removedAt[Object(facility: facility, index: index)] = nextSerial()
        commandedAt[Object(facility: facility, index: index)] = nil
    }

    /// A command to a stream's levels (its volume or mute) is about to be sent. Only an answer to a
    /// query already out can be older than it, so none is remembered while no query is out.
    mutating func commandSent(_ facility: PulseFacility, _ index: UInt32) {
        let sent = nextSerial()
        guard !queriesInFlight.isEmpty else { return }
        commandedAt[Object(facility: facility, index: index)] = sent
    }

    /// Whether a command to the stream was sent after the query that returned it: the answer tells
    /// how the stream was before the command, which the server has carried out since.
    func commandFollowed(_ facility: PulseFacility, _ index: UInt32, askedAt: UInt64) -> Bool {
        (commandedAt[Object(facility: facility, index: index)] ?? 0) > askedAt
    }

    /// Whether the object was removed after the query that returned it was sent.
    func isStale(_ facility: PulseFacility, _ index: UInt32, askedAt: UInt64) -> Bool {
        (removedAt[Object(facility: facility, index: index)] ?? 0) > askedAt
    }
}
