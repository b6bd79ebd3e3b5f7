import AudioPolicy
import Foundation
import Glibc

/// The journal of effects in force, in `$XDG_STATE_HOME/audiosession/journal.json`: each entry is
/// written before its effect is applied and removed once the effect is undone, so that a bridge that
/// was killed can undo what it left behind on its next start.
public final class EffectJournal {
    public let path: String
    public private(set) var entries: [StreamID: JournalEntry] = [:]

    /// The open file, rewritten in place; and how long its content is.
    private let descriptor: Int32
    private var fileLength: Int

    /// The journal in `directory` (created if needed); entries left by an earlier run are in ``leftovers``.
    public init(directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        path = directory + "/journal.json"
        leftovers = Self.read(path)
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw DaemonError("cannot write the journal \(path): \(String(cString: strerror(errno)))") }
        fileLength = Int(lseek(descriptor, 0, SEEK_END))
    }

    deinit { close(descriptor) }

    /// What an earlier run left in force (it was killed before undoing it).
    public private(set) var leftovers: [JournalEntry]

    /// The default directory: `$XDG_STATE_HOME/audiosession`, else `~/.local/state/audiosession`.
    public static var defaultDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        let state = environment["XDG_STATE_HOME"] ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/state")
        return state + "/audiosession"
    }

    /// Whether entries changed since the file was last written.
    private var unwritten = false

    /// Takes a journal action from the engine; ``flush()`` writes the file.
    public func apply(_ action: PolicyAction) {
        switch action {
        case .journalWrite(let entry): entries[entry.stream] = entry
        case .journalClear(let stream):
            guard entries.removeValue(forKey: stream) != nil else { return }
        default: return
        }
        unwritten = true
    }

    /// Writes the file if entries changed: once per engine step, after its actions were handed to the
    /// server connection and before the loop sends them (libpulse sends on the loop's next turn), so
    /// that the file always holds every effect that can have reached the server.
    public func flush() {
        guard unwritten else { return }
        unwritten = false
        write()
    }

    /// Forgets the leftovers once they have been undone.
    public func forgetLeftovers() {
        leftovers = []
        write()
    }

    /// Rewrites the file in place: one `pwrite` of the new content, padded with spaces over what is
    /// left of the old one, then a truncation. A bridge killed between the two leaves valid JSON either
    /// way, and no new file is created and renamed on every change (that cost more than the rest of a step).
    private func write() {
        let all = leftovers + entries.values.sorted { $0.stream < $1.stream }
        var bytes = Array((JSONValue.array(all.map(Self.encode)).serialized + "\n").utf8)
        let length = bytes.count
        if fileLength > length { bytes += repeatElement(UInt8(ascii: " "), count: fileLength - length) }
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        guard written == bytes.count else { return }
        if fileLength > length { _ = ftruncate(descriptor, off_t(length)) }
        fileLength = length
    }

    static func encode(_ entry: JournalEntry) -> JSONValue {
        func levels(_ value: StreamLevels) -> JSONValue {
            .object([("volume", .array(value.volume.values.map { .int($0) })), ("mute", .bool(value.mute))])
        }
        return .object([
            ("direction", .string(entry.stream.direction.rawValue)), ("index", .int(entry.stream.index)),
            ("restoreKey", entry.restoreKey.map { .string($0) } ?? .null),
            ("original", levels(entry.original)), ("applied", levels(entry.applied)),
        ])
    }

    static func read(_ path: String) -> [JournalEntry] {
        guard let data = FileManager.default.contents(atPath: path),
            let list = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        else { return [] }
        func levels(_ value: Any?) -> StreamLevels? {
            guard let object = value as? [String: Any], let volume = object["volume"] as? [Int] else { return nil }
            return StreamLevels(volume: ChannelVolumes(volume.map { UInt32($0) }), mute: object["mute"] as? Bool ?? false)
        }
        return list.compactMap { object in
            guard let direction = (object["direction"] as? String).flatMap(Direction.init(rawValue:)),
                let index = object["index"] as? Int, let original = levels(object["original"]),
                let applied = levels(object["applied"])
            else { return nil }
            return JournalEntry(stream: StreamID(direction, UInt32(index)), restoreKey: object["restoreKey"] as? String,
                                original: original, applied: applied)
        }
    }
}

extension ServerAdapter {
    /// Undoes what an earlier run left in force: every stream that still exists gets its original
    /// levels back, and the server's memory of each app is repaired.
    public func recover(_ leftovers: [JournalEntry]) {
        for entry in leftovers {
            let why = "recovered from the journal: an earlier bridge stopped without undoing this"
            if let stream = cache.stream(entry.stream),
                entry.restoreKey == nil || stream.properties["module-stream-restore.id"] == entry.restoreKey
            {
                execute(.setStreamVolume(entry.stream, entry.original.volume, why: why))
                execute(.setStreamMute(entry.stream, entry.original.mute, why: why))
            }
            if let key = entry.restoreKey { execute(.rememberStreamLevels(restoreKey: key, entry.original, why: why)) }
        }
    }
}
