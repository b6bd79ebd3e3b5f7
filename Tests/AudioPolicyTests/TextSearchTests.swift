// SPDX-License-Identifier: Apache-2.0
@testable import AudioPolicy
import Testing

/// `containsASCII` answers as the standard library's `contains` (and, ignoring case, as
/// `lowercased().contains`) would, ASCII or not.
@Suite("Searching names")
struct TextSearchTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var text: String
        var part: String
        var ignoringCase: Bool
        var expected: Bool
        var testDescription: String { "\"\(text)\" \(ignoringCase ? "≈" : "∋") \"\(part)\"" }
    }

    static let rows: [Row] = [
        Row(text: "PulseAudio (on PipeWire 1.6.9)", part: "PipeWire", ignoringCase: false, expected: true),
        Row(text: "pulseaudio", part: "PipeWire", ignoringCase: false, expected: false),
        Row(text: "PulseAudio (on pipewire 1.6.9)", part: "PipeWire", ignoringCase: false, expected: false),
        Row(text: "Chromium WebRTC VoiceEngine", part: "webrtc", ignoringCase: true, expected: true),
        Row(text: "Chromium WebRTC VoiceEngine", part: "WEBRTC", ignoringCase: true, expected: true),
        Row(text: "Chromium input", part: "webrtc", ignoringCase: true, expected: false),
        Row(text: "headset-head-unit", part: "headset", ignoringCase: false, expected: true),
        Row(text: "a2dp-sink", part: "a2dp-sink-long", ignoringCase: false, expected: false),
        Row(text: "hsp", part: "hsp", ignoringCase: false, expected: true),
        Row(text: "anything", part: "", ignoringCase: false, expected: false),
        Row(text: "", part: "x", ignoringCase: true, expected: false),
        Row(text: "a[b", part: "{", ignoringCase: true, expected: false),
        // Not ASCII: the standard library decides, as it did.
        Row(text: "ÉCOLE WebRTC", part: "webrtc", ignoringCase: true, expected: true),
        Row(text: "Téléphone", part: "TÉLÉ", ignoringCase: true, expected: true),
        Row(text: "Téléphone", part: "TÉLÉ", ignoringCase: false, expected: false),
    ]

    @Test("each row", arguments: rows)
    func row(_ row: Row) {
        #expect(row.text.containsASCII(row.part, ignoringCase: row.ignoringCase) == row.expected)
        let reference = row.ignoringCase ? row.text.lowercased().contains(row.part.lowercased()) : row.text.contains(row.part)
        #expect(reference == row.expected)
    }

    @Test("a substring is searched as its own text")
    func substring() {
        let name = "alsa_output.hdmi-stereo"
        let tail = name[name.firstIndex(of: ".")!...]
        #expect(tail.containsASCII("hdmi"))
        #expect(!tail.containsASCII("alsa"))
    }
}
