// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import FoundationEssentials
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
        UserDirectories.stateHome + "/audiosession"
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
        var text = ""
        JSONValue.array(all.map { StoredEntry($0).json }).append(to: &text)
        text += "\n"
        let length = text.utf8.count
        if fileLength > length { text += String(repeating: " ", count: fileLength - length) }
        let total = text.utf8.count
        let written = text.withUTF8 { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        guard written == total else { return }
        if fileLength > length { _ = ftruncate(descriptor, off_t(length)) }
        fileLength = length
    }

    static func read(_ path: String) -> [JournalEntry] {
        guard let data = FileManager.default.contents(atPath: path),
            let list = try? JSONDecoder().decode([Lenient<StoredEntry>].self, from: data)
        else { return [] }
        return list.compactMap { $0.value?.entry }
    }

    /// An entry as the file holds it: decoded with `JSONDecoder`, written through ``json`` (the event
    /// log's writer, which costs a fraction of `JSONEncoder` in a step that a mute waits for).
    private struct StoredEntry: Decodable {
        struct Levels: Decodable {
            var volume: [UInt32]
            var mute: Bool?
            init(_ levels: StreamLevels) {
                volume = levels.volume.values
                mute = levels.mute
            }
            var json: JSONValue {
                .object([("volume", .array(volume.map { .int($0) })), ("mute", mute.map(JSONValue.bool) ?? .null)])
            }
            var levels: StreamLevels { StreamLevels(volume: ChannelVolumes(volume), mute: mute ?? false) }
        }
        var direction: String
        var index: UInt32
        var restoreKey: String?
        var original: Levels
        var applied: Levels

        init(_ entry: JournalEntry) {
            direction = entry.stream.direction.rawValue
            index = entry.stream.index
            restoreKey = entry.restoreKey
            original = Levels(entry.original)
            applied = Levels(entry.applied)
        }

        var json: JSONValue {
            var fields: [(String, JSONValue)] = [("direction", .string(direction)), ("index", .int(index))]
            if let restoreKey { fields.append(("restoreKey", .string(restoreKey))) }
            return .object(fields + [("original", original.json), ("applied", applied.json)])
        }

        var entry: JournalEntry? {
            guard let direction = Direction(rawValue: direction) else { return nil }
            return JournalEntry(stream: StreamID(direction, index), restoreKey: restoreKey, original: original.levels,
                                applied: applied.levels)
        }
    }

    /// A value that is nil where the file holds something else: one damaged entry costs only itself.
    private struct Lenient<Value: Decodable>: Decodable {
        var value: Value?
        init(from decoder: any Decoder) { value = try? Value(from: decoder) }
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

    /// Whether every stream of `leftovers` that still exists is reported at its original levels:
    /// pipewire-pulse acknowledges a change before PipeWire has applied it, and a connection that ends
    /// at once can take the change with it.
    public func hasRecovered(_ leftovers: [JournalEntry]) -> Bool {
        leftovers.allSatisfy { entry in
            guard let stream = cache.stream(entry.stream) else { return true }
            return StreamLevels(volume: ChannelVolumes(stream.volume), mute: stream.mute) == entry.original
        }
    }
}
