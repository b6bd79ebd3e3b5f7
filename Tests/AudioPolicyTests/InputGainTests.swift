// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import AudioSessionModel
import Testing

/// `setInputGain` sets the session's input device volume, and refuses with the error Apple gives.
@Suite("Input gain")
struct InputGainTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var label: String
        var category: SessionCategory
        var active: Bool
        var gain: Double
        var expected: ErrorCode?
        var testDescription: String { label }
    }

    static let rows: [Row] = [
        Row(label: "an active recorder sets it", category: .record, active: true, gain: 0.5, expected: nil),
        Row(label: "playAndRecord sets it", category: .playAndRecord, active: true, gain: 0.25, expected: nil),
        Row(label: "a playback category has no input", category: .playback, active: true, gain: 0.5,
            expected: .cannotStartRecording),
        Row(label: "an inactive session", category: .record, active: false, gain: 0.5, expected: .sessionNotActive),
        Row(label: "above 1", category: .record, active: true, gain: 1.5, expected: .badParam),
        Row(label: "NaN", category: .record, active: true, gain: .nan, expected: .badParam),
    ]

    @Test("setInputGain", arguments: rows)
    func setInputGain(row: Row) {
        var scene = Scene()
        let id = scene.createSession("recorder")
        _ = scene.setCategory(id, row.category)
        if row.active { _ = scene.setActive(id, true) }
        let before = scene.serverDevices[scene.microphone]!.volume
        let caller = scene.owner(of: id)
        let error = scene.error(scene.call { .setInputGain($0, id, caller: caller, row.gain) })
        #expect(error == row.expected)
        let after = scene.serverDevices[scene.microphone]!.volume
        if row.expected == nil {
            #expect(after == ChannelVolumes(channels: 1, value: UInt32(row.gain * 0x10000)))
            #expect(scene.engine.inputGain(of: scene.engine.sessions[id]!) == row.gain)
        } else {
            #expect(after == before)
        }
        #expect(scene.engine.inputGainRefusal(of: scene.engine.sessions[id]!)?.code
                    == (row.expected == .badParam ? nil : row.expected))
    }

    @Test("another connection may not set it")
    func othersMayNot() {
        var scene = Scene()
        let id = scene.activeSession("recorder", .record)
        #expect(scene.error(scene.call { .setInputGain($0, id, caller: ":1.other", 0.5) }) == .accessDenied)
    }
}
