// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionDaemon
import Foundation
import Testing

/// The journal file, rewritten in place as effects come and go.
@Suite("The effect journal")
struct EffectJournalTests {
    static func entry(_ index: UInt32) -> JournalEntry {
        JournalEntry(stream: StreamID(.output, index), restoreKey: "sink-input-by-application-name:app\(index)",
                     original: StreamLevels(volume: ChannelVolumes([0x10000, 0x10000]), mute: false),
                     applied: StreamLevels(volume: ChannelVolumes([0x3333, 0x3333]), mute: true))
    }

    @Test("it shrinks in place to what is in force, and a later run reads that back as its leftovers")
    func shrinksInPlace() throws {
        let directory = NSTemporaryDirectory() + "journal-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try EffectJournal(directory: directory)
        for index: UInt32 in 1...6 { journal.apply(.journalWrite(Self.entry(index))) }
        journal.flush()
        let full = try String(contentsOfFile: journal.path, encoding: .utf8)
        for index: UInt32 in 1...5 { journal.apply(.journalClear(StreamID(.output, index))) }
        journal.flush()
        let shrunk = try String(contentsOfFile: journal.path, encoding: .utf8)
        #expect(shrunk.count < full.count, "the file was truncated, not padded")
        let parsed = try JSONSerialization.jsonObject(with: Data(shrunk.utf8)) as? [[String: Any]]
        #expect(parsed?.compactMap { $0["index"] as? Int } == [6])

        let nextRun = try EffectJournal(directory: directory)
        #expect(nextRun.leftovers == [Self.entry(6)])
        nextRun.forgetLeftovers()
        #expect(try String(contentsOfFile: journal.path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test("a journal left padded by a bridge killed between its write and its truncation still reads back; a damaged entry costs only itself")
    func paddedAndDamaged() throws {
        let directory = NSTemporaryDirectory() + "journal-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let text = """
            [{"direction":"output","index":7,"restoreKey":null,"original":{"volume":[65536,65536],"mute":false},\
            "applied":{"volume":[13107,13107],"mute":true}},{"direction":"sideways","index":8}]
            """ + String(repeating: " ", count: 300) + "\n"
        try text.write(toFile: directory + "/journal.json", atomically: false, encoding: .utf8)
        let journal = try EffectJournal(directory: directory)
        #expect(journal.leftovers.map(\.stream) == [StreamID(.output, 7)])
        #expect(journal.leftovers.first?.applied == StreamLevels(volume: ChannelVolumes([13107, 13107]), mute: true))
    }
}
