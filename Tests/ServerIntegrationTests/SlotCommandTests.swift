// SPDX-License-Identifier: Apache-2.0
import AudioTestHarness
import Foundation
import PulseAudioClient
import ServerTestTraits
import Testing

/// Level commands sent in a context's numbered places (`PulseContext.send(_:)`), the path of an
/// interruption's first moves: no completion is made for each, and every answer still comes back.
@Suite("Level commands in numbered places, on a real server", .serialized, .threadOfItsOwn)
struct SlotCommandTests {
    @Test("each answer comes to the handler with its place's number, a refusal with an error; every place taken sends nothing",
          arguments: SoundServerKind.underTest)
    func answersByNumber(kind: SoundServerKind) throws {
        let server = try SoundServer(kind)
        defer { server.stop() }
        let player = try server.play(app: "slot-player")
        defer { player.stop() }
        let index = try server.reportedStream(of: "slot-player").index
        let loop = try PulseLoop()
        loop.start()
        defer { loop.stop() }
        let answers = Recorder<(number: Int, failed: Bool)>()
        let sent = Recorder<Int?>()
        let context = Recorder<PulseContext>()
        loop.perform {
            let made = try! PulseContext(loop: loop, name: "slot-test")
            context.append(made)
            made.onSlotAnswer = { number, error in answers.append((number, error != nil)) }
            made.onStateChange = { [unowned made] state in
                guard state == .ready else { return }
                sent.append(try? made.send(.sinkInputMute(index, true)))
                sent.append(try? made.send(.sinkInputMute(987_654, true)))
            }
            try! made.connect(server: server.address)
        }
        defer { loop.perform { context.items.first?.disconnect() } }
        try waitUntil("both answers") { answers.items.count == 2 }
        let numbers = sent.items.compactMap { $0 }
        #expect(numbers.count == 2 && Set(numbers).count == 2, "two places: \(sent.items)")
        let failedByNumber = Dictionary(uniqueKeysWithValues: answers.items.map { ($0.number, $0.failed) })
        #expect(failedByNumber == [numbers[0]: false, numbers[1]: true],
                "the stream's command is carried out, the missing stream's refused, each answered with its place")
        try waitUntil("the server to report the stream muted") { try server.reportedStream(index: index)?.mute == true }

        // Every place taken: the next command is not sent, and is once the answers have come.
        let full = Recorder<Int?>()
        loop.perform {
            let made = context.items[0]
            for _ in 0..<PulseContext.slotCapacity { full.append(try? made.send(.sinkInputVolume(index, [0x8000, 0x8000]))) }
            // Not sent, and not refused either: nil, where a refusal would throw.
            do { full.append(try made.send(.sinkInputMute(index, false))) } catch { full.append(-1) }
        }
        try waitUntil("the commands to be sent") { full.items.count == PulseContext.slotCapacity + 1 }
        #expect(full.items.prefix(PulseContext.slotCapacity).allSatisfy { $0 != nil })
        #expect(full.items.last! == nil, "with every place taken the command is not sent")
        try waitUntil("every answer") { answers.items.count == 2 + PulseContext.slotCapacity }
        loop.perform { sent.append(try? context.items[0].send(.sinkInputMute(index, false))) }
        try waitUntil("the server to report the stream unmuted") { try server.reportedStream(index: index)?.mute == false }
        #expect(sent.items.last! != nil, "a place is free again once its answer came")
    }
}
