// SPDX-License-Identifier: Apache-2.0
/// The engine's sessions by id: a dictionary that also notes which sessions were written (added,
/// changed or removed) since the shell last took that note, and keeps the few small sets that the
/// rules ask about on every activation (active sessions, calls, primary audio, interrupted and hinted
/// sessions), so that the engine's work follows what changed rather than how many sessions exist.
public struct SessionTable: Sequence, Hashable, Sendable {
    private var storage: [SessionID: Session] = [:]
    /// The sessions written since ``PolicyEngine/takeTouchedSessions()``.
    private(set) var touched: Set<SessionID> = []
    /// Active sessions.
    private(set) var activeIDs: Set<SessionID> = []
    /// Active calls.
    private(set) var activeCallIDs: Set<SessionID> = []
    /// Active sessions ranked above the ordinary priority (calls, alerts, policies with a priority).
    private(set) var activeRankedIDs: Set<SessionID> = []
    /// Sessions that count as primary audio for the secondary-audio hint.
    private(set) var primaryIDs: Set<SessionID> = []
    /// Sessions interrupted by anything.
    private(set) var interruptedIDs: Set<SessionID> = []
    /// Sessions told to silence their secondary audio.
    private(set) var hintedIDs: Set<SessionID> = []
    /// Sessions waiting for their turn (``Session/waitingTurn``).
    private(set) var waitingIDs: Set<SessionID> = []
    /// Explicit sessions by their owner's unique bus name.
    private var ownedIDs: [String: Set<SessionID>] = [:]

    /// The sessions a bus connection owns.
    func owned(by busName: String) -> Set<SessionID> { ownedIDs[busName] ?? [] }

    public init() {}

    /// The session with this id; writing it (or through it) notes it as touched and keeps the sets.
    public subscript(id: SessionID) -> Session? {
        get { storage[id] }
        _modify {
            touched.insert(id)
            let before = membership(of: id)
            yield &storage[id]
            let after = membership(of: id)
            if before != after { update(id, from: before, to: after ?? Membership()) }
        }
    }

    public var keys: Dictionary<SessionID, Session>.Keys { storage.keys }
    public var values: Dictionary<SessionID, Session>.Values { storage.values }
    public var count: Int { storage.count }
    public var isEmpty: Bool { storage.isEmpty }
    public func makeIterator() -> Dictionary<SessionID, Session>.Iterator { storage.makeIterator() }

    /// Notes a session as touched without changing it (a property it shows changed elsewhere).
    mutating func touch(_ id: SessionID) { touched.insert(id) }

    /// The touched sessions, forgotten as they are returned.
    mutating func takeTouched() -> Set<SessionID> {
        defer { touched = [] }
        return touched
    }

    /// Which of the sets a session belongs to.
    private struct Membership: Equatable {
        var active = false, call = false, ranked = false, primary = false, interrupted = false, hinted = false
        var waiting = false
        var owner: String?

        init() {}

        /// Read where the session lies (``SessionTable/membership(of:)``); `session` is not changed.
        init(_ session: inout Session) {
            active = session.isActive
            call = session.isActive && session.configuration.isCall
            ranked = session.isActive && session.rank > SessionPolicy.ordinaryPriority
            primary = session.isPrimaryAudio
            interrupted = session.isInterrupted
            hinted = session.secondaryAudioShouldBeSilenced
            waiting = session.waitingTurn != nil
            owner = session.owner
        }
    }

    /// The sets a session belongs to, read where it lies in the table: the dictionary's getter would
    /// copy the whole session (``PolicyEngine/readInPlace(_:_:)`` says why), twice per write.
    private mutating func membership(of id: SessionID) -> Membership? {
        guard let index = storage.index(forKey: id) else { return nil }
        return Membership(&storage.values[index])
    }

    private mutating func update(_ id: SessionID, from before: Membership?, to membership: Membership) {
        if before?.owner != membership.owner {
            if let old = before?.owner {
                ownedIDs[old]?.remove(id)
                if ownedIDs[old]?.isEmpty == true { ownedIDs[old] = nil }
            }
            if let new = membership.owner { ownedIDs[new, default: []].insert(id) }
        }
        func place(_ set: inout Set<SessionID>, _ member: Bool) {
            if member { set.insert(id) } else { set.remove(id) }
        }
        place(&activeIDs, membership.active)
        place(&activeCallIDs, membership.call)
        place(&activeRankedIDs, membership.ranked)
        place(&primaryIDs, membership.primary)
        place(&interruptedIDs, membership.interrupted)
        place(&hintedIDs, membership.hinted)
        place(&waitingIDs, membership.waiting)
    }
}
