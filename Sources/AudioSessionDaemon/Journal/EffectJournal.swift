// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import FoundationEssentials
import Glibc

/// The journal of effects in force, in `$XDG_STATE_HOME/audiosession/journal.json`: each entry is
/// written before its effect is applied and removed once the effect is undone, so that a bridge that
/// was killed can undo what it left behind on its next start.
///
/// The file is mapped into memory and made of fixed slots (``JournalSlot``), one JSON value per line:
/// writing an entry is a copy into the page cache, with no system call and no allocation, and the
/// kernel has it before the command it covers leaves. A new entry of a stream goes to a free slot
/// before its old one is cleared, and carries a sequence number: a bridge killed in the middle of
/// either leaves the old entry or the new one readable, never neither.
public final class EffectJournal {
    public let path: String

    private let descriptor: Int32
    private var mapping: UnsafeMutableRawPointer
    private var slotCount: Int
    /// The slot of each stream's entry, and the slots free to take.
    private var slotOf: [StreamID: Int] = [:]
    private var freeSlots: [Int] = []
    /// The slots holding the leftovers of an earlier run, until they are forgotten.
    private var leftoverSlots: [Int] = []
    private var sequence: UInt64 = 0

    /// What an earlier run left in force (it was killed before undoing it).
    public private(set) var leftovers: [JournalEntry]

    /// The `[` line before the slots.
    private static let headerLength = 2
    private static let firstSlotCount = 64

    /// The journal in `directory` (created if needed); entries left by an earlier run are in ``leftovers``.
    public init(directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        path = directory + "/journal.json"
        leftovers = Self.read(path)
        // The new file is laid out beside the old one and renamed over it once it holds the leftovers:
        // a bridge killed while it starts leaves one of the two whole.
        let fresh = path + ".new"
        descriptor = open(fresh, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw DaemonError("cannot write the journal \(fresh): \(String(cString: strerror(errno)))") }
        slotCount = max(Self.firstSlotCount, 2 * leftovers.count)
        guard let mapped = Self.map(descriptor, slots: slotCount) else {
            close(descriptor)
            throw DaemonError("cannot map the journal \(fresh): \(String(cString: strerror(errno)))")
        }
        mapping = mapped
        mapping.storeBytes(of: UInt8(ascii: "["), toByteOffset: 0, as: UInt8.self)
        mapping.storeBytes(of: UInt8(ascii: "\n"), toByteOffset: 1, as: UInt8.self)
        for slot in 0..<slotCount { JournalSlot.initialize(address(of: slot), last: slot == slotCount - 1) }
        for (slot, entry) in leftovers.enumerated() {
            sequence += 1
            _ = JournalSlot.write(entry, sequence: sequence, to: address(of: slot))
            leftoverSlots.append(slot)
        }
        guard rename(fresh, path) == 0 else {
            munmap(mapping, Self.fileLength(slots: slotCount))
            close(descriptor)
            throw DaemonError("cannot replace the journal \(path): \(String(cString: strerror(errno)))")
        }
        freeSlots = Array((leftovers.count..<slotCount).reversed())
        freeSlots.reserveCapacity(4 * slotCount)
        slotOf.reserveCapacity(2 * slotCount)
    }

    deinit {
        munmap(mapping, Self.fileLength(slots: slotCount))
        close(descriptor)
    }

    /// The default directory: `$XDG_STATE_HOME/audiosession`, else `~/.local/state/audiosession`.
    public static var defaultDirectory: String {
        UserDirectories.stateHome + "/audiosession"
    }

    /// Takes a journal action from the engine and writes it at once.
    public func apply(_ action: PolicyAction) {
        switch action {
        case .journalWrite(let entry):
            if freeSlots.isEmpty { grow() }
            guard let slot = freeSlots.popLast() else { return }
            sequence += 1
            guard JournalSlot.write(entry, sequence: sequence, to: address(of: slot)) else { return freeSlots.append(slot) }
            if let old = slotOf.updateValue(slot, forKey: entry.stream) { free(old) }
        case .journalClear(let stream):
            if let old = slotOf.removeValue(forKey: stream) { free(old) }
        default: return
        }
    }

    /// Forgets the leftovers once they have been undone.
    public func forgetLeftovers() {
        leftovers = []
        leftoverSlots.forEach(free)
        leftoverSlots = []
    }

    private func free(_ slot: Int) {
        JournalSlot.clear(address(of: slot))
        freeSlots.append(slot)
    }

    private func address(of slot: Int) -> UnsafeMutableRawPointer {
        mapping + Self.headerLength + slot * JournalSlot.width
    }

    /// A quarter more slots, when every one is taken: the file grows and is mapped again (the one time
    /// a write costs system calls). Every slot is a page-cache kilobyte of the bridge's, so it grows by
    /// a quarter, not twice. The new slots are ready before the old last one stops ending the array.
    private func grow() {
        let count = slotCount + max(Self.firstSlotCount, slotCount / 4)
        guard let grown = Self.map(descriptor, slots: count) else { return }
        munmap(mapping, Self.fileLength(slots: slotCount))
        mapping = grown
        for slot in slotCount..<count { JournalSlot.initialize(address(of: slot), last: slot == count - 1) }
        JournalSlot.setSeparator(address(of: slotCount - 1), last: false)
        freeSlots.append(contentsOf: (slotCount..<count).reversed())
        slotCount = count
    }

    private static func fileLength(slots: Int) -> Int { headerLength + slots * JournalSlot.width }

    /// Sizes the file for `slots` and maps it.
    private static func map(_ descriptor: Int32, slots: Int) -> UnsafeMutableRawPointer? {
        let length = fileLength(slots: slots)
        guard ftruncate(descriptor, off_t(length)) == 0,
            let address = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0),
            address != UnsafeMutableRawPointer(bitPattern: -1)
        else { return nil }
        return address
    }

    /// The entries a file holds: the newest of each stream. Each line is read on its own (a slot torn
    /// by a killed bridge costs only itself); a file of an earlier version, one JSON array on one
    /// line, reads the same way.
    static func read(_ path: String) -> [JournalEntry] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        var newest: [StreamID: (sequence: UInt64, entry: JournalEntry)] = [:]
        var order: [StreamID] = []
        for line in data.split(separator: UInt8(ascii: "\n")) {
            for stored in storedEntries(in: Data(line)) {
                guard let entry = stored.entry else { continue }
                let sequence = stored.seq ?? 0
                if newest[entry.stream] == nil { order.append(entry.stream) }
                if (newest[entry.stream]?.sequence ?? 0) <= sequence { newest[entry.stream] = (sequence, entry) }
            }
        }
        return order.compactMap { newest[$0]?.entry }
    }

    /// The entries of one line: a slot's value (with its separator), or a whole array.
    private static func storedEntries(in line: Data) -> [StoredEntry] {
        if let list = try? JSONDecoder().decode([Lenient<StoredEntry>].self, from: line) { return list.compactMap(\.value) }
        var bytes = line[...]
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: ",") || last == UInt8(ascii: "]") {
            bytes = bytes.dropLast()
        }
        return (try? JSONDecoder().decode(StoredEntry.self, from: Data(bytes))).map { [$0] } ?? []
    }

    /// An entry as the file holds it (written by ``JournalSlot``).
    private struct StoredEntry: Decodable {
        struct Levels: Decodable {
            var volume: [UInt32]
            var mute: Bool?
            var levels: StreamLevels { StreamLevels(volume: ChannelVolumes(volume), mute: mute ?? false) }
        }
        /// Which of two entries of a stream is the newer (absent in files of an earlier version).
        var seq: UInt64?
        var direction: String
        var index: UInt32
        var restoreKey: String?
        var original: Levels
        var applied: Levels

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
