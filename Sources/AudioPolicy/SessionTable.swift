/// The engine's sessions by id: a dictionary that also notes which sessions were written (added,
/// changed or removed) since the shell last took that note, so that the shell's work after an event
/// follows what changed rather than how many sessions exist.
public struct SessionTable: Sequence, Hashable, Sendable {
    private var storage: [SessionID: Session] = [:]
    /// The sessions written since ``PolicyEngine/takeTouchedSessions()``.
    private(set) var touched: Set<SessionID> = []

    public init() {}

    /// The session with this id; writing it (or through it) notes it as touched.
    public subscript(id: SessionID) -> Session? {
        get { storage[id] }
        _modify {
            touched.insert(id)
            yield &storage[id]
        }
    }

    public var keys: Dictionary<SessionID, Session>.Keys { storage.keys }
    public var values: Dictionary<SessionID, Session>.Values { storage.values }
    public var count: Int { storage.count }
    public var isEmpty: Bool { storage.isEmpty }
    public func makeIterator() -> Dictionary<SessionID, Session>.Iterator { storage.makeIterator() }

    /// The touched sessions, forgotten as they are returned.
    mutating func takeTouched() -> Set<SessionID> {
        defer { touched = [] }
        return touched
    }
}
