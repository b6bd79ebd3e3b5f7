// SPDX-License-Identifier: Apache-2.0
import AudioPolicy
import AudioSessionDaemon
import Foundation
import Testing

/// The journal file, mapped into memory and written slot by slot as effects come and go.
@Suite("The effect journal")
struct EffectJournalTests {
    static func entry(_ index: UInt32) -> JournalEntry {
        JournalEntry(stream: StreamID(.output, index), restoreKey: "sink-input-by-application-name:app\(index)",
                     original: StreamLevels(volume: ChannelVolumes([0x10000, 0x10000]), mute: false),
                     applied: StreamLevels(volume: ChannelVolumes([0x3333, 0x3333]), mute: true))
    }

    /// The entries the file holds now, as an independent JSON parser reads it (the slots cleared are `null`).
    static func objects(_ path: String) throws -> [[String: Any]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any]).compactMap { $0 as? [String: Any] }
    }

    @Test("each entry is in the file as soon as it is applied, a cleared one is gone, and a later run reads back what is in force")
    func writtenAtOnce() throws {
        let directory = NSTemporaryDirectory() + "journal-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try EffectJournal(directory: directory)
        for index: UInt32 in 1...6 { journal.apply(.journalWrite(Self.entry(index))) }
        #expect(try Self.objects(journal.path).compactMap { $0["index"] as? Int } == [1, 2, 3, 4, 5, 6])
        for index: UInt32 in 1...5 { journal.apply(.journalClear(StreamID(.output, index))) }
        #expect(try Self.objects(journal.path).compactMap { $0["index"] as? Int } == [6])
        var changed = Self.entry(6)
        changed.applied.mute = false
        journal.apply(.journalWrite(changed))
        #expect(try Self.objects(journal.path).count == 1, "a stream's new entry replaces its old one")

        let nextRun = try EffectJournal(directory: directory)
        #expect(nextRun.leftovers == [changed])
        nextRun.forgetLeftovers()
        #expect(try Self.objects(journal.path).isEmpty)
    }

    @Test("a start lays the new file out beside the old one: a half-made one left by a start that was killed changes nothing")
    func startReplacesWhole() throws {
        let directory = NSTemporaryDirectory() + "journal-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try EffectJournal(directory: directory)
        journal.apply(.journalWrite(Self.entry(3)))
        try "[\nnull     ,\n{\"seq\":9,\"dire".write(toFile: journal.path + ".new", atomically: false, encoding: .utf8)
        let nextRun = try EffectJournal(directory: directory)
        #expect(nextRun.leftovers == [Self.entry(3)])
        #expect(!FileManager.default.fileExists(atPath: journal.path + ".new"))
        #expect(try Self.objects(journal.path).compactMap { $0["index"] as? Int } == [3], "the leftovers stay in the file")
    }

    @Test("the file grows when its slots are taken, and every entry reads back")
    func grows() throws {
        let directory = NSTemporaryDirectory() + "journal-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try EffectJournal(directory: directory)
        for index: UInt32 in 1...300 { journal.apply(.journalWrite(Self.entry(index))) }
        #expect(try Self.objects(journal.path).count == 300)
        #expect(try EffectJournal(directory: directory).leftovers.map(\.stream.index) == Array(1...300))
    }

    @Test("an entry too long for its slot is kept without its restore key")
    func longRestoreKey() throws {
        let directory = NSTemporaryDirectory() + "journal-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try EffectJournal(directory: directory)
        var long = Self.entry(9)
        long.restoreKey = "sink-input-by-application-name:" + String(repeating: "\"ü\\", count: 400)
        journal.apply(.journalWrite(long))
        var keyless = long
        keyless.restoreKey = nil
        #expect(try EffectJournal(directory: directory).leftovers == [keyless])
    }

    @Test("a bridge killed between a stream's new entry and the clearing of its old one leaves the newer; a torn slot costs only itself")
    func killedMidway() throws {
        let directory = NSTemporaryDirectory() + "journal-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        func line(_ seq: Int, _ index: Int, mute: Bool) -> String {
            """
            {"seq":\(seq),"direction":"output","index":\(index),"original":{"volume":[65536,65536],"mute":false},\
            "applied":{"volume":[13107,13107],"mute":\(mute)}}     ,
            """
        }
        let text = ["[", line(5, 7, mute: true), line(3, 7, mute: false), "{\"seq\":6,\"direction\":\"outp",
                    line(4, 8, mute: true), "null     ]"].joined(separator: "\n") + "\n"
        try text.write(toFile: directory + "/journal.json", atomically: false, encoding: .utf8)
        let journal = try EffectJournal(directory: directory)
        #expect(journal.leftovers.map(\.stream) == [StreamID(.output, 7), StreamID(.output, 8)])
        #expect(journal.leftovers.first?.applied.mute == true, "the entry with the higher sequence number")
    }

    @Test("a journal an earlier version left (one array, padded) still reads back; a damaged entry costs only itself")
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
